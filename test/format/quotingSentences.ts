import { PageOutOfRangeError } from "../../src/answers/pageOutOfRange.js";
import { PrivateRepositoryError } from "../../src/answers/privateAccess.js";
import { formatContents } from "../../src/format/contents.js";
import { privateAnswerNote } from "../../src/format/privacy.js";
import {
  EmptyRepositoryError,
  GitHubForbiddenError,
  NotACommitError,
  NotAFileError,
  OwnerNotFoundError,
  PathNotFoundError,
  RefNotFoundError,
  RepositoryNotFoundError,
  TooLargeError,
  type ReaderOrigin,
} from "../../src/github/errors.js";
import type { UserFacingError } from "../../src/errors.js";
import { errorSentence, type ErrorSituation } from "../../src/format/errorSentence.js";
import { IN_SERVER } from "../sentenceOf.js";
import { FRESH, NOW, PINNED, REPOSITORY } from "./fixtures.js";

/**
 * Every sentence that quotes text RepoScout did not write (a repository's names, paths, refs, link
 * targets; what a user typed), for the property test of hostile text (property.test.ts): each
 * entry builds its sentence from two random hostile strings. A new sentence that quotes such text
 * (an issue's title, its labels) adds an entry here, and is checked like the others.
 */
export interface QuotingSentence {
  name: string;
  /** How many lines the sentence has of its own (default 1): quoted text must add none. */
  lines?: number;
  make(hostile: string, other: string): string;
}

const repo = (owner: string, name: string) => ({ owner, name });

/** What the user reads for `error` (sentenceOf without its per-call assertion: these run by the thousand). */
function sentenceOf(error: UserFacingError, situation: ErrorSituation = IN_SERVER): string {
  return errorSentence(error, situation);
}
const origins: ReaderOrigin[] = ["user", "server", "default"];

function withOrigin<E extends RepositoryNotFoundError>(error: E, index: number): E {
  return error.readWith({ origin: origins[index % origins.length]!, publicOnly: index % 2 === 0 });
}

/** A symbolic link's answer (`/contents`) pointing to `target`. */
function symlinkDescription(path: string, target: string): string {
  const message = formatContents(
    { kind: "symlink", repository: REPOSITORY, commit: PINNED, path, target },
    {},
    { freshness: FRESH, now: NOW, ref: "main" },
  );
  return message.embeds[0]?.description ?? "";
}

export const QUOTING_SENTENCES: QuotingSentence[] = [
  {
    name: "/blame of a symbolic link: its path and target (inside the repository)",
    make: (hostile, other) =>
      sentenceOf(new NotAFileError(repo("demo", "widgets"), `docs/${other}`, "symlink", undefined, hostile)),
  },
  {
    name: "/blame of a symbolic link: a target read from a nested folder",
    make: (hostile, other) =>
      sentenceOf(
        new NotAFileError(repo("demo", "widgets"), `a/b/${other}`, "symlink", undefined, `../${hostile}`),
      ),
  },
  {
    name: "/contents of a symbolic link: its path, target and the command that shows the target",
    lines: 2,
    make: (hostile, other) => symlinkDescription(`docs/${other}`, hostile),
  },
  {
    name: "a path not found, at a ref",
    make: (hostile, other) => sentenceOf(new PathNotFoundError(repo("demo", "widgets"), hostile, other)),
  },
  {
    name: "a ref not found",
    make: (hostile, other) => sentenceOf(new RefNotFoundError(repo(other, "widgets"), hostile)),
  },
  {
    name: "a ref that names no commit",
    make: (hostile, other) =>
      sentenceOf(new NotACommitError(repo("demo", other), hostile, { objectType: "Tree", tags: 1 })),
  },
  {
    name: "a folder or a submodule given as a file",
    make: (hostile, other) =>
      sentenceOf(
        new NotAFileError(repo("demo", other), hostile, hostile.length % 2 === 0 ? "folder" : "submodule"),
      ),
  },
  {
    name: "an owner not found",
    make: (hostile) => sentenceOf(new OwnerNotFoundError(hostile)),
  },
  {
    name: "a repository not found, whoever's token read",
    make: (hostile, other) =>
      sentenceOf(withOrigin(new RepositoryNotFoundError(repo(hostile, other)), hostile.length)),
  },
  {
    name: "a private repository through the shared token",
    make: (hostile, other) => sentenceOf(new PrivateRepositoryError(`${hostile}/${other}`)),
  },
  {
    name: "an empty repository, one too large to list, one the token may not read",
    make: (hostile, other) =>
      [
        sentenceOf(new EmptyRepositoryError(repo(hostile, other))),
        sentenceOf(new TooLargeError(repo(hostile, other))),
        sentenceOf(new GitHubForbiddenError(repo(other, hostile))),
      ].join(" "),
  },
  {
    name: "a page past the end of a list",
    make: (hostile, other) =>
      sentenceOf(
        new PageOutOfRangeError(
          other.length % 2 === 0 ? "contributors" : "repositories",
          hostile,
          7,
          other.length % 3 === 0 ? null : 3,
        ),
        { ...IN_SERVER, inServer: other.length % 2 === 0 },
      ),
  },
  {
    name: "the note of a private answer",
    make: (hostile) =>
      privateAnswerNote(
        {
          kind: "repository",
          nameWithOwner: hostile,
          visibility: hostile.length % 2 ? "PRIVATE" : "INTERNAL",
        },
        "onlyYou",
      ),
  },
];
