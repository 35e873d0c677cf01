import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import { heldButtonState, heldButtons, storedButtons } from "../src/bot/buttonState.js";
import {
  fileLinesButtonStateSchema,
  fileLinesPages,
  type FileLinesPages,
} from "../src/bot/fileLinesButtons.js";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import {
  EVERYWHERE,
  linesOption,
  parseWith,
  refOption,
  repoOption,
  threadOption,
} from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import type { Fetched } from "../src/answers/scout.js";
import { firstExistingSplit } from "../src/answers/urlSplits.js";
import { ExpiredComponentError } from "../src/errors.js";
import { contentsWindow, formatContents, type ContentsView } from "../src/format/contents.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type NavigationButtons } from "../src/format/message.js";
import type { ContentsAnswer, RepoRef } from "../src/github/types.js";
import { fileLines, MAX_LINES_IN_MESSAGE } from "../src/format/snippet.js";
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
  /** The answer shares a message with others (a message menu on several links): its embed's room. */
  embedBudget?: number;
  /** No `lines`: a file of at most 50 lines is shown whole (a message menu on a link without anchor). */
  wholeIfSmall?: boolean;
}

const buttonStateSchema = fileLinesButtonStateSchema;

const rawSchema = z.object({
  repo: z.string(),
  path: z.string().optional(),
  ref: z.string().optional(),
  lines: z.string().optional(),
  thread: z.boolean().optional(),
});

/**
 * What an answer shows, and the pages a file's Previous / Next buttons turn to (a folder has
 * none).
 */
function layoutOf(
  answer: ContentsAnswer,
  lines: LineSpan | undefined,
  ref: string | undefined,
  repo: RepoRef,
): { view: ContentsView; pages: FileLinesPages } {
  const view: ContentsView = lines ? { startLine: lines.start, endLine: lines.end } : {};
  const shown = contentsWindow(answer, view);
  return { view, pages: shown ? fileLinesPages(repo, answer, ref, shown, shown.total) : {} };
}

/** The answer of a folder or a file, its buttons' custom ids in hand. */
function answerOf(
  fetched: Fetched<ContentsAnswer>,
  view: ContentsView,
  buttons: NavigationButtons,
  ref: string | undefined,
  repo: RepoRef,
  services: Services,
  embedBudget?: number,
): CommandAnswer {
  const answer = fetched.value;
  const subject = `${repo.owner}/${repo.name}${answer.path ? ` ${answer.path}` : ""}`;
  const now = services.now();
  return {
    message: services.rendered.message(
      [answer],
      [freshnessText(fetched.freshness, now), view, buttons, ref, embedBudget],
      () => formatContents(answer, view, { freshness: fetched.freshness, now, buttons, ref, embedBudget }),
    ),
    threadName: threadName("contents", subject),
    summary: formatThreadSummary("contents", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

async function render(
  fetched: Fetched<ContentsAnswer>,
  lines: LineSpan | undefined,
  ref: string | undefined,
  repo: RepoRef,
  services: Services,
  embedBudget?: number,
): Promise<CommandAnswer> {
  const { view, pages } = layoutOf(fetched.value, lines, ref, repo);
  const buttons = await storedButtons("contents", pages, services.buttons);
  return answerOf(fetched, view, buttons, ref, repo, services, embedBudget);
}

/**
 * What `execute` shows of a fetched answer: the ref in the footer (by default the default branch)
 * and the lines (a small file whole, when asked so).
 */
function shownOf(
  args: ContentsArgs,
  fetched: Fetched<ContentsAnswer>,
  ref: string | undefined,
): { ref: string | undefined; lines: LineSpan | undefined } {
  const answer = fetched.value;
  const small =
    args.wholeIfSmall && args.lines === undefined && answer.kind === "blob" && answer.file.kind === "text"
      ? fileLines(answer.file).length
      : 0;
  return {
    // No ref asked: the answer follows the default branch, and the footer names it.
    ref: ref ?? answer.repository.defaultBranch ?? undefined,
    lines: small > 0 && small <= MAX_LINES_IN_MESSAGE ? { start: 1, end: small } : args.lines,
  };
}

/** `/contents`: a folder's entries, or a snippet of a file with line numbers. */
export const command: CommandModule<ContentsArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "contents",
    ...EVERYWHERE,
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
  threadAsked: (args) => args.thread,
  customIdPrefixes: ["contents"],
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
    const { fetched, ref } = args.splits
      ? await firstExistingSplit(args.splits, async (split) => ({
          fetched: await contentsAt(split.ref, split.path),
          ref: split.ref,
        }))
      : { fetched: await contentsAt(args.ref, args.path), ref: args.ref };
    const shown = shownOf(args, fetched, ref);
    return render(fetched, shown.lines, shown.ref, args.repo, services, args.embedBudget);
  },
  answerHeld(args, request, services) {
    // The read `execute` makes first: a held one exists, so `execute` stops at it too.
    const first = args.splits?.[0] ?? {
      path: args.path,
      ...(args.ref !== undefined ? { ref: args.ref } : {}),
    };
    const fetched = services.scout.heldContents?.(request, {
      repo: args.repo,
      path: first.path,
      ...(first.ref !== undefined ? { ref: first.ref } : {}),
    });
    if (!fetched) return undefined;
    const shown = shownOf(args, fetched, first.ref);
    const { view, pages } = layoutOf(fetched.value, shown.lines, shown.ref, args.repo);
    const buttons = heldButtons("contents", pages, services.buttons);
    return buttons && answerOf(fetched, view, buttons, shown.ref, args.repo, services, args.embedBudget);
  },
  async button(context, services) {
    const key = context.customId.slice("contents:".length);
    const state = buttonStateSchema.safeParse(await services.buttons.get(key));
    if (!state.success) throw new ExpiredComponentError("contents");
    const { repo, oid, path, ref, start, end } = state.data;
    const fetched = await services.scout.contents(context.request, { repo, ref: oid, path });
    return render(fetched, { start, end }, ref, repo, services);
  },
  buttonHeld(context, services) {
    const state = heldButtonState(services.buttons, context.customId, "contents", buttonStateSchema);
    if (!state) return undefined;
    const { repo, oid, path, ref, start, end } = state;
    const fetched = services.scout.heldContents?.(context.request, { repo, ref: oid, path });
    if (!fetched) return undefined;
    const { view, pages } = layoutOf(fetched.value, { start, end }, ref, repo);
    const buttons = heldButtons("contents", pages, services.buttons);
    return buttons && answerOf(fetched, view, buttons, ref, repo, services, undefined);
  },
  autocomplete: autocompleteRepoAndPath,
};
