import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandAnswer, CommandModule, CommandRequest } from "../src/bot/commandModule.js";
import { linesOption, parseWith, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { ExpiredComponentError, InvalidOptionError } from "../src/errors.js";
import { formatBlame } from "../src/format/blame.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import type { NavigationButtons } from "../src/format/message.js";
import type { BlameAnswer, RepoRef } from "../src/github/types.js";
import { parseLines, type LineSpan } from "../src/input/linesArgument.js";
import { parsePath } from "../src/input/pathArgument.js";
import { parseRef } from "../src/input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import type { Fetched } from "../src/answers/scout.js";
import { firstExistingSplit } from "../src/answers/urlSplits.js";

/** Lines shown when none are asked for. */
const DEFAULT_LINES = 20;

interface BlameArgs {
  repo: RepoRef;
  path: string;
  ref?: string;
  /** Refs to try in turn when a URL's `<ref>/<path>` can be split several ways. */
  refCandidates?: string[];
  lines?: LineSpan;
  thread?: boolean;
}

/**
 * The state behind the Previous / Next buttons: the same file at the same pinned commit, and the
 * ref it was asked at (for the footer).
 */
const buttonStateSchema = z.object({
  repo: z.object({ owner: z.string(), name: z.string() }),
  oid: z.string(),
  path: z.string(),
  ref: z.string().optional(),
  start: z.number().int().min(1),
  end: z.number().int().min(1),
});
type BlameButtonState = z.infer<typeof buttonStateSchema>;

const rawSchema = z.object({
  repo: z.string(),
  path: z.string(),
  ref: z.string().optional(),
  lines: z.string().optional(),
  thread: z.boolean().optional(),
});

function lineCountOf(answer: BlameAnswer): number {
  // A binary file has blame ranges (git counts its newline bytes) but no lines to page through.
  if (answer.file.kind === "binary") return 0;
  const lastRange = answer.ranges.at(-1);
  if (lastRange) return lastRange.endingLine;
  if (answer.file.kind !== "text" || answer.file.text.length === 0) return 0;
  const text = answer.file.text;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

async function render(
  fetched: Fetched<BlameAnswer>,
  span: LineSpan | undefined,
  services: Services,
  repo: RepoRef,
  ref: string | undefined,
): Promise<CommandAnswer> {
  const { value: answer, freshness } = fetched;
  const total = lineCountOf(answer);
  const last = Math.max(total, 1);
  let start = span?.start ?? 1;
  let end = span?.end ?? start + DEFAULT_LINES - 1;
  // As formatBlame does: a window wholly past the end moves back to the last lines, keeping its size.
  if (start > last) [start, end] = [Math.max(1, last - (end - start)), last];
  end = Math.max(start, Math.min(end, last));
  const size = end - start + 1;
  const buttons: NavigationButtons = {};
  const base = { repo, oid: answer.commit.oid, path: answer.path, ...(ref !== undefined ? { ref } : {}) };
  if (start > 1) {
    const state: BlameButtonState = { ...base, start: Math.max(1, start - size), end: start - 1 };
    buttons.previous = `blame:${await services.buttons.put(state)}`;
  }
  if (end < total) {
    const state: BlameButtonState = { ...base, start: end + 1, end: Math.min(total, end + size) };
    buttons.next = `blame:${await services.buttons.put(state)}`;
  }
  const message = formatBlame(
    answer,
    // The end as asked: past the file's end, the answer says where the file stops.
    { startLine: start, endLine: Math.max(end, span?.end ?? end), requestedLines: span !== undefined },
    { freshness, now: services.now(), buttons, ref },
  );
  const subject = `${repo.owner}/${repo.name} ${answer.path}`;
  return {
    message,
    threadName: threadName("blame", subject),
    summary: formatThreadSummary("blame", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

/** `/blame`: the lines of a file with, for each blame range, who changed them, when, and why. */
export const command: CommandModule<BlameArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "blame",
    description: "Show who last changed each line of a file, and in which commit",
    options: [
      repoOption,
      {
        type: ApplicationCommandOptionType.String,
        name: "path",
        description: "Path of the file, like src/app.ts",
        required: true,
        autocomplete: true,
        max_length: 4096,
      },
      refOption,
      linesOption,
      threadOption,
    ],
  },
  threadable: true,
  customIdPrefixes: ["blame"],
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl));
    const path = parsePath(raw.path);
    if (path === "") throw new InvalidOptionError("path", "takes the path of a file, like `src/app.ts`.");
    const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
    const lines = raw.lines !== undefined ? parseLines(raw.lines) : fromRepo.lines;
    return {
      repo: fromRepo.repo,
      path,
      ...(ref !== undefined ? { ref } : {}),
      ...(raw.ref === undefined && fromRepo.splits
        ? { refCandidates: fromRepo.splits.map((split) => split.ref) }
        : {}),
      ...(lines !== undefined ? { lines } : {}),
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  async execute(args, request: CommandRequest, services) {
    const blameAt = (ref: string | undefined) =>
      services.scout.blame(request, {
        repo: args.repo,
        path: args.path,
        ...(ref !== undefined ? { ref } : {}),
      });
    const { fetched, ref } = args.refCandidates
      ? await firstExistingSplit(
          args.refCandidates.map((ref) => ({ ref, path: args.path })),
          async (split) => ({ fetched: await blameAt(split.ref), ref: split.ref }),
        )
      : { fetched: await blameAt(args.ref), ref: args.ref };
    // No ref asked: the answer follows the default branch, and the footer names it.
    const shownRef = ref ?? fetched.value.repository.defaultBranch ?? undefined;
    return render(fetched, args.lines, services, args.repo, shownRef);
  },
  async button(context, services) {
    const key = context.customId.slice("blame:".length);
    const state = buttonStateSchema.safeParse(await services.buttons.get(key));
    if (!state.success) throw new ExpiredComponentError("blame");
    const { repo, oid, path, ref, start, end } = state.data;
    const fetched = await services.scout.blame(context.request, { repo, ref: oid, path });
    return render(fetched, { start, end }, services, repo, ref);
  },
  autocomplete: autocompleteRepoAndPath,
};
