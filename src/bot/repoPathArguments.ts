import { ApplicationCommandOptionType, type APIApplicationCommandBasicOption } from "discord-api-types/v10";
import { z } from "zod";
import type { RepoRef } from "../github/types.js";
import { parsePath } from "../input/pathArgument.js";
import { parseRef } from "../input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../input/repoArgument.js";
import type { RawOptions } from "./commandModule.js";
import { parseWith } from "./commonOptions.js";
import type { Services } from "./services.js";

/** The arguments of a command about a file or a folder (or the whole repository) at a revision. */
export interface RepoPathArgs {
  repo: RepoRef;
  /** "" for the root: the whole repository. */
  path: string;
  ref?: string;
  thread?: boolean;
}

const rawSchema = z.object({
  repo: z.string(),
  path: z.string().optional(),
  ref: z.string().optional(),
  thread: z.boolean().optional(),
});

/** The optional `path` option of a command that takes a file or a folder, the root when not given. */
export function folderOrFileOption(description: string): APIApplicationCommandBasicOption {
  return {
    type: ApplicationCommandOptionType.String,
    name: "path",
    description,
    required: false,
    autocomplete: true,
    max_length: 4096,
  };
}

/**
 * `repo`, `path`, `ref` and `thread` of a command that reads a file or a folder: `path` and `ref`
 * given as options win over those a URL in `repo` carries; neither given, the root at the default
 * branch.
 */
export function parseRepoPathArguments(options: RawOptions, services: Services): RepoPathArgs {
  const raw = parseWith(rawSchema, options);
  const fromRepo = parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl));
  // A URL that can be split several ways is read the likeliest way (its first split).
  const path = raw.path !== undefined ? parsePath(raw.path) : (fromRepo.path ?? "");
  const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
  return {
    repo: fromRepo.repo,
    path,
    ...(ref !== undefined ? { ref } : {}),
    ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
  };
}

/** What an answer about `path` of `repo` is about, as its thread's name and summary show it. */
export function repoPathSubject(repo: RepoRef, path: string): string {
  const repoName = `${repo.owner}/${repo.name}`;
  return path === "" ? repoName : `${repoName} ${path}`;
}
