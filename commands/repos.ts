import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, parseWith, threadOption } from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { ExpiredComponentError } from "../src/errors.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type NavigationButtons } from "../src/format/message.js";
import { formatRepositories } from "../src/format/repositories.js";
import { checkPageInRange } from "../src/answers/pageOutOfRange.js";
import type { Asker, Fetched, RepositoriesArgs } from "../src/answers/scout.js";
import { heldButtonState, heldButtons, storedButtons, type ButtonPages } from "../src/bot/buttonState.js";
import type { RepositoriesPage, RepositorySort } from "../src/github/types.js";
import { parseOwner } from "../src/input/repoArgument.js";
import { withFields } from "../src/withFields.js";

/** Repositories per page: enough to scan, few enough to read on a phone. */
export const REPOS_PER_PAGE = 10;

interface ReposArgs {
  owner: string;
  sort: RepositorySort;
  thread?: boolean;
}

/**
 * The state behind Previous / Next: GraphQL pages forward with `after`, so the cursors of every
 * page so far are kept (`cursors[i]` is the `after` of page i + 1; page 1 has none).
 */
const buttonStateSchema = z.object({
  owner: z.string(),
  sort: z.enum(["pushed", "name"]),
  cursors: z.array(z.string().nullable()).min(1).max(1000),
});
type ReposButtonState = z.infer<typeof buttonStateSchema>;

const rawSchema = z.object({
  owner: z.string(),
  sort: z.enum(["pushed", "name"]).optional(),
  thread: z.boolean().optional(),
});

/** What a page asks of the Scout. */
function pageRequest(state: ReposButtonState): RepositoriesArgs {
  const after = state.cursors.at(-1) ?? null;
  return {
    login: state.owner,
    first: REPOS_PER_PAGE,
    sort: state.sort,
    ...(after !== null ? { after } : {}),
  };
}

/** The pages the buttons turn to: back one cursor, or on to GitHub's next. */
function pagesOf(state: ReposButtonState, result: RepositoriesPage): ButtonPages<ReposButtonState> {
  // Next is offered only while GitHub says there is more, but the list may shrink in between.
  checkPageInRange({
    list: "repositories",
    subject: result.owner.login,
    page: state.cursors.length,
    shown: result.repositories.length,
    pages: Math.max(1, Math.ceil(result.totalCount / REPOS_PER_PAGE)),
  });
  const pages: ButtonPages<ReposButtonState> = {};
  if (state.cursors.length > 1) pages.previous = withFields(state, { cursors: state.cursors.slice(0, -1) });
  if (result.pageInfo.hasNextPage && result.pageInfo.endCursor) {
    pages.next = withFields(state, { cursors: [...state.cursors, result.pageInfo.endCursor] });
  }
  return pages;
}

/** The page, its buttons' custom ids in hand. */
function answerOf(
  state: ReposButtonState,
  fetched: Fetched<RepositoriesPage>,
  buttons: NavigationButtons,
  services: Services,
): CommandAnswer {
  const result = fetched.value;
  const subject = result.owner.login;
  const now = services.now();
  const view = { sort: state.sort, pageNumber: state.cursors.length, perPage: REPOS_PER_PAGE };
  // Kept per answer (format once): the freshness text is the only part that moves with the clock.
  const variant = [freshnessText(fetched.freshness, now), view, buttons];
  return {
    message: services.rendered.message([result], variant, () =>
      formatRepositories(result, view, { freshness: fetched.freshness, now, buttons }),
    ),
    threadName: threadName("repos", subject),
    summary: formatThreadSummary("repos", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

async function page(state: ReposButtonState, asker: Asker, services: Services): Promise<CommandAnswer> {
  const fetched = await services.scout.repositories(asker, pageRequest(state));
  const buttons = await storedButtons("repos", pagesOf(state, fetched.value), services.buttons);
  return answerOf(state, fetched, buttons, services);
}

/** {@link page} at once, when its read and its buttons' states are held; else undefined. */
function heldPage(state: ReposButtonState, asker: Asker, services: Services): CommandAnswer | undefined {
  const fetched = services.scout.heldRepositories?.(asker, pageRequest(state));
  if (!fetched) return undefined;
  const buttons = heldButtons("repos", pagesOf(state, fetched.value), services.buttons);
  return buttons && answerOf(state, fetched, buttons, services);
}

/** The first page of what `/repos` asks. */
const firstPage = (args: ReposArgs): ReposButtonState => ({
  owner: args.owner,
  sort: args.sort,
  cursors: [null],
});

/** `/repos`: an owner's repositories, most recently pushed first (or by name), a page at a time. */
export const command: CommandModule<ReposArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "repos",
    ...EVERYWHERE,
    description: "List the repositories of a user or organization",
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: "owner",
        description: "GitHub login of a user or organization",
        required: true,
        max_length: 39,
      },
      {
        type: ApplicationCommandOptionType.String,
        name: "sort",
        description: "Order (default: last pushed first)",
        required: false,
        choices: [
          { name: "last pushed", value: "pushed" },
          { name: "name", value: "name" },
        ],
      },
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  customIdPrefixes: ["repos"],
  parse(options) {
    const raw = parseWith(rawSchema, options);
    return {
      owner: parseOwner(raw.owner),
      sort: raw.sort ?? "pushed",
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  execute(args, request, services) {
    return page(firstPage(args), request, services);
  },
  answerHeld: (args, request, services) => heldPage(firstPage(args), request, services),
  async button(context, services) {
    const state = buttonStateSchema.safeParse(
      await services.buttons.get(context.customId.slice("repos:".length)),
    );
    if (!state.success) throw new ExpiredComponentError("repos");
    return page(state.data, context.request, services);
  },
  buttonHeld(context, services) {
    const state = heldButtonState(services.buttons, context.customId, "repos", buttonStateSchema);
    return state && heldPage(state, context.request, services);
  },
};
