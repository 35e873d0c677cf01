import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import { heldButtonState, heldButtons, storedButtons } from "../src/bot/buttonState.js";
import {
  fileLinesButtonStateSchema,
  fileLinesPages,
  type FileLinesPages,
} from "../src/bot/fileLinesButtons.js";
import type { CommandAnswer, CommandModule, CommandRequest } from "../src/bot/commandModule.js";
import {
  EVERYWHERE,
  linesOption,
  parseWith,
  refOption,
  repoOption,
  threadOption,
} from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { ExpiredComponentError, InvalidOptionError } from "../src/errors.js";
import { blameLineCount, formatBlame } from "../src/format/blame.js";
import { selectLines } from "../src/format/lineSelection.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type NavigationButtons } from "../src/format/message.js";
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

/** One way to read the file: a ref and a path, and the URL's path when `path:` named another. */
interface BlameTarget {
  ref: string;
  path: string;
  /** Said in the answer: the file URL named this path, and the `path` option another, blamed. */
  pathInUrl?: string;
}

interface BlameArgs {
  repo: RepoRef;
  /** The `path` option, else the path of the file URL given as `repo`. */
  path: string;
  ref?: string;
  /** Set when `path:` and the file URL name different files (and no `splits` are tried). */
  pathInUrl?: string;
  /** Ways to read a URL's `<ref>/<path>` when it can be split several ways, tried in turn. */
  splits?: BlameTarget[];
  lines?: LineSpan;
  thread?: boolean;
  /** The answer shares a message with others (a message menu on several links): its embed's room. */
  embedBudget?: number;
}

const buttonStateSchema = fileLinesButtonStateSchema;

const rawSchema = z.object({
  repo: z.string(),
  path: z.string().optional(),
  ref: z.string().optional(),
  lines: z.string().optional(),
  thread: z.boolean().optional(),
});

/** What an answer shows of the file, and the pages its buttons turn to. */
interface BlameLayout {
  view: { startLine: number; endLine: number; requestedLines: boolean; pathInUrl?: string };
  pages: FileLinesPages;
}

function layoutOf(
  answer: BlameAnswer,
  span: LineSpan | undefined,
  repo: RepoRef,
  ref: string | undefined,
  pathInUrl: string | undefined,
): BlameLayout {
  const total = blameLineCount(answer);
  const start = span?.start ?? 1;
  const view = {
    startLine: start,
    endLine: span?.end ?? start + DEFAULT_LINES - 1,
    requestedLines: span !== undefined,
    ...(pathInUrl !== undefined ? { pathInUrl } : {}),
  };
  // The lines the answer shows (formatBlame makes the same choice): the buttons turn from there.
  const shown = selectLines(
    { start: view.startLine, end: view.endLine, requested: view.requestedLines },
    total,
  );
  return { view, pages: fileLinesPages(repo, answer, ref, shown, total) };
}

/** The answer, its buttons' custom ids in hand. */
function answerOf(
  fetched: Fetched<BlameAnswer>,
  layout: BlameLayout,
  buttons: NavigationButtons,
  services: Services,
  repo: RepoRef,
  ref: string | undefined,
  embedBudget: number | undefined,
): CommandAnswer {
  const { value: answer, freshness } = fetched;
  const { view } = layout;
  const now = services.now();
  // Everything besides the answer that shapes the message; the freshness text is the only part
  // that changes with the clock (the minute of "cached N min ago").
  const variant = [freshnessText(freshness, now), view, buttons, ref, embedBudget];
  const message = services.rendered.message([answer], variant, () =>
    formatBlame(answer, view, { freshness, now, buttons, ref, embedBudget }),
  );
  const subject = `${repo.owner}/${repo.name} ${answer.path}`;
  return {
    message,
    threadName: threadName("blame", subject),
    summary: formatThreadSummary("blame", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

async function render(
  fetched: Fetched<BlameAnswer>,
  span: LineSpan | undefined,
  services: Services,
  repo: RepoRef,
  ref: string | undefined,
  pathInUrl?: string,
  embedBudget?: number,
): Promise<CommandAnswer> {
  const layout = layoutOf(fetched.value, span, repo, ref, pathInUrl);
  const buttons = await storedButtons("blame", layout.pages, services.buttons);
  return answerOf(fetched, layout, buttons, services, repo, ref, embedBudget);
}

/** `/blame`: the lines of a file with, for each blame range, who changed them, when, and why. */
export const command: CommandModule<BlameArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "blame",
    ...EVERYWHERE,
    description: "Show who last changed each line of a file, and in which commit",
    options: [
      repoOption,
      {
        type: ApplicationCommandOptionType.String,
        name: "path",
        description: "Path of the file, like src/app.ts (not needed when repo is a file URL)",
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
  customIdPrefixes: ["blame"],
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl));
    const given = raw.path !== undefined ? parsePath(raw.path) : undefined;
    // `path:/` (given === "") is the root: a folder, answered as any folder is.
    // Every way the file or folder URL can be read (a branch may hold slashes), first the likeliest.
    const readings =
      fromRepo.kind === undefined
        ? []
        : (fromRepo.splits ??
          (fromRepo.ref !== undefined ? [{ ref: fromRepo.ref, path: fromRepo.path ?? "" }] : []));
    // A folder URL's path (its root too) is asked like `path:`, so a folder reads one sentence
    // ("is a folder, and blame works on files") whichever way it was given.
    const folderUrl = fromRepo.kind === "tree";
    const urlPaths = readings.map((reading) => reading.path).filter((path) => path !== "" || folderUrl);
    const path = given ?? urlPaths[0];
    if (path === undefined) {
      throw new InvalidOptionError(
        "path",
        "is needed when `repo` names no file: give `path:` (like `src/app.ts`), or a file URL as `repo` " +
          "(like `https://github.com/owner/name/blob/main/src/app.ts`).",
      );
    }
    // `path:` wins over the URL (SPEC section 1); the answer says so when they name different files.
    const differs = given !== undefined && !folderUrl && urlPaths.length > 0 && !urlPaths.includes(given);
    const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
    const lines = raw.lines !== undefined ? parseLines(raw.lines) : fromRepo.lines;
    const splits: BlameTarget[] | undefined =
      raw.ref === undefined && fromRepo.splits
        ? fromRepo.splits
            .filter((split) => given !== undefined || folderUrl || split.path !== "")
            .map((split) => ({
              ref: split.ref,
              path: given ?? split.path,
              ...(differs && split.path !== "" ? { pathInUrl: split.path } : {}),
            }))
        : undefined;
    return {
      repo: fromRepo.repo,
      path,
      ...(ref !== undefined ? { ref } : {}),
      ...(differs && !splits ? { pathInUrl: urlPaths[0]! } : {}),
      ...(splits ? { splits } : {}),
      ...(lines !== undefined ? { lines } : {}),
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  async execute(args, request: CommandRequest, services) {
    const blameAt = (ref: string | undefined, path: string) =>
      services.scout.blame(request, {
        repo: args.repo,
        path,
        ...(ref !== undefined ? { ref } : {}),
      });
    const { fetched, pathInUrl, ref } = args.splits
      ? await firstExistingSplit(args.splits, async (split) => ({
          fetched: await blameAt(split.ref, split.path),
          pathInUrl: split.pathInUrl,
          ref: split.ref,
        }))
      : { fetched: await blameAt(args.ref, args.path), pathInUrl: args.pathInUrl, ref: args.ref };
    // No ref asked: the answer follows the default branch, and the footer names it.
    const shownRef = ref ?? fetched.value.repository.defaultBranch ?? undefined;
    return render(fetched, args.lines, services, args.repo, shownRef, pathInUrl, args.embedBudget);
  },
  answerHeld(args, request, services) {
    // The read `execute` makes first: a held one exists, so `execute` stops at it too.
    const first: Partial<BlameTarget> & { path: string } = args.splits?.[0] ?? {
      path: args.path,
      ...(args.ref !== undefined ? { ref: args.ref } : {}),
      ...(args.pathInUrl !== undefined ? { pathInUrl: args.pathInUrl } : {}),
    };
    const fetched = services.scout.heldBlame?.(request, {
      repo: args.repo,
      path: first.path,
      ...(first.ref !== undefined ? { ref: first.ref } : {}),
    });
    if (!fetched) return undefined;
    const shownRef = first.ref ?? fetched.value.repository.defaultBranch ?? undefined;
    const layout = layoutOf(fetched.value, args.lines, args.repo, shownRef, first.pathInUrl);
    const buttons = heldButtons("blame", layout.pages, services.buttons);
    return buttons && answerOf(fetched, layout, buttons, services, args.repo, shownRef, args.embedBudget);
  },
  async button(context, services) {
    const key = context.customId.slice("blame:".length);
    const state = buttonStateSchema.safeParse(await services.buttons.get(key));
    if (!state.success) throw new ExpiredComponentError("blame");
    const { repo, oid, path, ref, start, end } = state.data;
    const fetched = await services.scout.blame(context.request, { repo, ref: oid, path });
    return render(fetched, { start, end }, services, repo, ref);
  },
  buttonHeld(context, services) {
    const state = heldButtonState(services.buttons, context.customId, "blame", buttonStateSchema);
    if (!state) return undefined;
    const { repo, oid, path, ref, start, end } = state;
    const fetched = services.scout.heldBlame?.(context.request, { repo, ref: oid, path });
    if (!fetched) return undefined;
    const layout = layoutOf(fetched.value, { start, end }, repo, ref, undefined);
    const buttons = heldButtons("blame", layout.pages, services.buttons);
    return buttons && answerOf(fetched, layout, buttons, services, repo, ref, undefined);
  },
  autocomplete: autocompleteRepoAndPath,
};
