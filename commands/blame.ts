import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandAnswer, CommandModule, CommandRequest } from "../src/bot/commandModule.js";
import { linesOption, parseWith, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { ExpiredComponentError, InvalidOptionError } from "../src/errors.js";
import { blameLineCount, formatBlame } from "../src/format/blame.js";
import { selectLines } from "../src/format/lineSelection.js";
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

/** The state behind the Previous / Next buttons: the same file at the same pinned commit. */
const buttonStateSchema = z.object({
  repo: z.object({ owner: z.string(), name: z.string() }),
  oid: z.string(),
  path: z.string(),
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

async function render(
  fetched: Fetched<BlameAnswer>,
  span: LineSpan | undefined,
  services: Services,
  repo: RepoRef,
): Promise<CommandAnswer> {
  const { value: answer, freshness } = fetched;
  const total = blameLineCount(answer);
  const start = span?.start ?? 1;
  const view = {
    startLine: start,
    endLine: span?.end ?? start + DEFAULT_LINES - 1,
    requestedLines: span !== undefined,
  };
  // The lines the answer shows (formatBlame makes the same choice): the buttons turn from there.
  const shown = selectLines(
    { start: view.startLine, end: view.endLine, requested: view.requestedLines },
    total,
  );
  const size = shown.end - shown.start + 1;
  const buttons: NavigationButtons = {};
  const base = { repo, oid: answer.commit.oid, path: answer.path };
  if (total > 0 && shown.start > 1) {
    const state: BlameButtonState = { ...base, start: Math.max(1, shown.start - size), end: shown.start - 1 };
    buttons.previous = `blame:${await services.buttons.put(state)}`;
  }
  if (shown.end < total) {
    const state: BlameButtonState = { ...base, start: shown.end + 1, end: Math.min(total, shown.end + size) };
    buttons.next = `blame:${await services.buttons.put(state)}`;
  }
  const message = formatBlame(answer, view, { freshness, now: services.now(), buttons });
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
    const fetched = args.refCandidates
      ? await firstExistingSplit(
          args.refCandidates.map((ref) => ({ ref, path: args.path })),
          (split) => blameAt(split.ref),
        )
      : await blameAt(args.ref);
    return render(fetched, args.lines, services, args.repo);
  },
  async button(context, services) {
    const key = context.customId.slice("blame:".length);
    const state = buttonStateSchema.safeParse(await services.buttons.get(key));
    if (!state.success) throw new ExpiredComponentError("blame");
    const { repo, oid, path, start, end } = state.data;
    const fetched = await services.scout.blame(context.request, { repo, ref: oid, path });
    return render(fetched, { start, end }, services, repo);
  },
  autocomplete: autocompleteRepoAndPath,
};
