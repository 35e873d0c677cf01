import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandModule } from "../src/bot/commandModule.js";
import { linesOption, parseWith, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import { firstExistingSplit } from "../src/answers/urlSplits.js";
import { formatContents } from "../src/format/contents.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import type { RepoRef } from "../src/github/types.js";
import { parseLines, type LineSpan } from "../src/input/linesArgument.js";
import { parsePath } from "../src/input/pathArgument.js";
import { parseRef } from "../src/input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";

interface ContentsArgs {
  repo: RepoRef;
  path: string;
  ref?: string;
  /** Ways to read a URL's `<ref>/<path>` when it can be split several ways (a branch with `/`). */
  splits?: Array<{ ref: string; path: string }>;
  lines?: LineSpan;
  thread?: boolean;
}

const rawSchema = z.object({
  repo: z.string(),
  path: z.string().optional(),
  ref: z.string().optional(),
  lines: z.string().optional(),
  thread: z.boolean().optional(),
});

/** `/contents`: a folder's entries, or a snippet of a file with line numbers. */
export const command: CommandModule<ContentsArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "contents",
    description: "Show a folder's entries or a file's lines",
    options: [
      repoOption,
      {
        type: ApplicationCommandOptionType.String,
        name: "path",
        description: "Path of a file or folder (default: the root)",
        required: false,
        autocomplete: true,
        max_length: 4096,
      },
      refOption,
      linesOption,
      threadOption,
    ],
  },
  threadable: true,
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl));
    const path = raw.path !== undefined ? parsePath(raw.path) : (fromRepo.path ?? "");
    const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
    const lines = raw.lines !== undefined ? parseLines(raw.lines) : fromRepo.lines;
    return {
      repo: fromRepo.repo,
      path,
      ...(ref !== undefined ? { ref } : {}),
      ...(raw.ref === undefined && fromRepo.splits
        ? {
            splits: fromRepo.splits.map((split) => ({
              ref: split.ref,
              path: raw.path !== undefined ? path : split.path,
            })),
          }
        : {}),
      ...(lines !== undefined ? { lines } : {}),
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  async execute(args, request, services) {
    const contentsAt = (ref: string | undefined, path: string) =>
      services.scout.contents(request, {
        repo: args.repo,
        path,
        ...(ref !== undefined ? { ref } : {}),
      });
    const fetched = args.splits
      ? await firstExistingSplit(args.splits, (split) => contentsAt(split.ref, split.path))
      : await contentsAt(args.ref, args.path);
    const path = fetched.value.path;
    const subject = `${args.repo.owner}/${args.repo.name}${path ? ` ${path}` : ""}`;
    return {
      message: formatContents(
        fetched.value,
        args.lines ? { startLine: args.lines.start, endLine: args.lines.end } : {},
        { freshness: fetched.freshness, now: services.now() },
      ),
      threadName: threadName("contents", subject),
      summary: formatThreadSummary("contents", subject),
      ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    };
  },
  autocomplete: autocompleteRepoAndPath,
};
