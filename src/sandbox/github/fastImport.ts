import { runGitChecked, type GitOptions } from "./gitProcess.js";

/** Lets the demo world's version stamp change when this generator code changes. */
export const FAST_IMPORT_MODULE_URL = import.meta.url;

/** An author or committer with an explicit time, so generated histories are reproducible. */
export interface ImportSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  /** `+0200`, `-0700`. */
  timezone: string;
}

/** A change of one path in a commit. */
export type ImportChange =
  | { path: string; content: string | Buffer; mode?: "100644" | "100755" | "120000" }
  | { path: string; submodule: string }
  | { path: string; delete: true };

export interface ImportCommit {
  /** `refs/heads/main`. */
  ref: string;
  author: ImportSignature;
  committer?: ImportSignature;
  message: string;
  /** Mark of the first parent; absent for a root commit. */
  from?: number;
  /** Marks of further parents (a merge). */
  merge?: number[];
  changes: ImportChange[];
}

/**
 * Builds a `git fast-import` stream: one process writes a whole repository, with explicit author
 * and committer dates, instead of hundreds of `git commit` calls.
 */
export class FastImportScript {
  readonly #parts: Buffer[] = [];
  #nextMark = 1;

  /** Appends a commit and returns its mark. */
  commit(commit: ImportCommit): number {
    const mark = this.#nextMark++;
    const committer = commit.committer ?? commit.author;
    this.#text(`commit ${commit.ref}\nmark :${mark}\n`);
    this.#text(`author ${signature(commit.author)}\ncommitter ${signature(committer)}\n`);
    this.#data(commit.message);
    if (commit.from !== undefined) this.#text(`from :${commit.from}\n`);
    for (const parent of commit.merge ?? []) this.#text(`merge :${parent}\n`);
    for (const change of commit.changes) {
      const path = quotePath(change.path);
      if ("delete" in change) this.#text(`D ${path}\n`);
      else if ("submodule" in change) this.#text(`M 160000 ${change.submodule} ${path}\n`);
      else {
        this.#text(`M ${change.mode ?? "100644"} inline ${path}\n`);
        this.#data(change.content);
      }
    }
    this.#text("\n");
    return mark;
  }

  /** Points `ref` (a branch or a lightweight tag) at a commit. */
  reset(ref: string, mark: number): void {
    this.#text(`reset ${ref}\nfrom :${mark}\n\n`);
  }

  /** Adds an annotated tag of a commit. */
  annotatedTag(name: string, mark: number, tagger: ImportSignature, message: string): void {
    this.#text(`tag ${name}\nfrom :${mark}\ntagger ${signature(tagger)}\n`);
    // Unlike after a commit, fast-import takes no blank line after a tag.
    this.#data(message);
  }

  /** The whole stream, ending with `done`. */
  toBuffer(): Buffer {
    return Buffer.concat([...this.#parts, Buffer.from("done\n")]);
  }

  #text(text: string): void {
    this.#parts.push(Buffer.from(text, "utf8"));
  }

  #data(content: string | Buffer): void {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    this.#text(`data ${bytes.length}\n`);
    this.#parts.push(bytes, Buffer.from("\n"));
  }
}

function signature(person: ImportSignature): string {
  return `${person.name} <${person.email}> ${person.time} ${person.timezone}`;
}

/** fast-import takes a path as is unless it starts with a quote or holds a line feed. */
function quotePath(path: string): string {
  if (!path.startsWith('"') && !path.includes("\n")) return path;
  return JSON.stringify(path);
}

/** Creates a bare repository at `gitDir` whose HEAD names `defaultBranch`. */
export async function initBareRepository(
  gitDir: string,
  defaultBranch: string,
  options: GitOptions = {},
): Promise<void> {
  await runGitChecked(
    ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`, "--", gitDir],
    options,
  );
}

/** Runs one `git fast-import` of `script` into the bare repository `gitDir`. */
export async function runFastImport(
  gitDir: string,
  script: FastImportScript,
  options: GitOptions = {},
): Promise<void> {
  await runGitChecked(["fast-import", "--quiet", "--date-format=raw", "--done"], {
    ...options,
    gitDir,
    input: script.toBuffer(),
  });
}
