import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, parseWith, repoOption, threadOption } from "../src/bot/commonOptions.js";
import type { Services } from "../src/bot/services.js";
import { suggestRepositories } from "../src/answers/autocomplete.js";
import { checkPageInRange } from "../src/answers/pageOutOfRange.js";
import { ExpiredComponentError, InvalidOptionError } from "../src/errors.js";
import { formatContributors } from "../src/format/contributors.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type NavigationButtons } from "../src/format/message.js";
import type { Asker, Fetched } from "../src/answers/scout.js";
import { heldButtonState, heldButtons, storedButtons, type ButtonPages } from "../src/bot/buttonState.js";
import type { ContributorsPage, RepoRef } from "../src/github/types.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";

interface ContributorsArgs {
  repo: RepoRef;
  page: number;
  thread?: boolean;
}

const buttonStateSchema = z.object({
  repo: z.object({ owner: z.string(), name: z.string() }),
  page: z.number().int().min(1),
});

const rawSchema = z.object({
  repo: z.string(),
  page: z.number().optional(),
  thread: z.boolean().optional(),
});

type ContributorsButtonState = z.infer<typeof buttonStateSchema>;

/** The pages the buttons turn to (checked first: the page asked must exist). */
function pagesOf(
  result: ContributorsPage,
  repo: RepoRef,
  pageNumber: number,
): ButtonPages<ContributorsButtonState> {
  checkPageInRange({
    list: "contributors",
    subject: `${repo.owner}/${repo.name}`,
    page: pageNumber,
    shown: result.contributors.length,
    pages: result.lastPage,
  });
  const pages: ButtonPages<ContributorsButtonState> = {};
  if (result.hasPreviousPage || pageNumber > 1) pages.previous = { repo, page: Math.max(1, pageNumber - 1) };
  if (result.hasNextPage) pages.next = { repo, page: pageNumber + 1 };
  return pages;
}

/** The page, its buttons' custom ids in hand. */
function answerOf(
  fetched: Fetched<ContributorsPage>,
  repo: RepoRef,
  buttons: NavigationButtons,
  services: Services,
): CommandAnswer {
  const result = fetched.value;
  const subject = `${repo.owner}/${repo.name}`;
  const now = services.now();
  const repoUrl = `${services.config.github.webUrl}/${subject}`;
  // Kept per answer (format once): the freshness text is the only part that moves with the clock.
  const variant = [freshnessText(fetched.freshness, now), subject, repoUrl, buttons];
  return {
    message: services.rendered.message([result], variant, () =>
      formatContributors(result, { repo: subject, repoUrl }, { freshness: fetched.freshness, now, buttons }),
    ),
    threadName: threadName("contributors", subject),
    summary: formatThreadSummary("contributors", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

async function render(
  repo: RepoRef,
  pageNumber: number,
  asker: Asker,
  services: Services,
): Promise<CommandAnswer> {
  const fetched = await services.scout.contributors(asker, { repo, page: pageNumber });
  const pages = pagesOf(fetched.value, repo, pageNumber);
  return answerOf(fetched, repo, await storedButtons("contributors", pages, services.buttons), services);
}

/** {@link render} at once, when its read and its buttons' states are held; else undefined. */
function heldPage(
  repo: RepoRef,
  pageNumber: number,
  asker: Asker,
  services: Services,
): CommandAnswer | undefined {
  const fetched = services.scout.heldContributors?.(asker, { repo, page: pageNumber });
  if (!fetched) return undefined;
  const buttons = heldButtons("contributors", pagesOf(fetched.value, repo, pageNumber), services.buttons);
  return buttons && answerOf(fetched, repo, buttons, services);
}

/** `/contributors`: a repository's contributors as GitHub pages them, 30 a page. */
export const command: CommandModule<ContributorsArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "contributors",
    ...EVERYWHERE,
    description: "List the contributors of a repository",
    options: [
      repoOption,
      {
        type: ApplicationCommandOptionType.Integer,
        name: "page",
        description: "Page number, 30 contributors a page (default 1)",
        required: false,
        min_value: 1,
        max_value: 10_000,
      },
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  customIdPrefixes: ["contributors"],
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    if (raw.page !== undefined && (!Number.isInteger(raw.page) || raw.page < 1)) {
      throw new InvalidOptionError("page", "takes a whole number from 1.");
    }
    return {
      repo: parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl)).repo,
      page: raw.page ?? 1,
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  execute(args, request, services) {
    return render(args.repo, args.page, request, services);
  },
  answerHeld: (args, request, services) => heldPage(args.repo, args.page, request, services),
  async button(context, services) {
    const state = buttonStateSchema.safeParse(
      await services.buttons.get(context.customId.slice("contributors:".length)),
    );
    if (!state.success) throw new ExpiredComponentError("contributors");
    return render(state.data.repo, state.data.page, context.request, services);
  },
  buttonHeld(context, services) {
    const state = heldButtonState(services.buttons, context.customId, "contributors", buttonStateSchema);
    return state && heldPage(state.repo, state.page, context.request, services);
  },
  async autocomplete(focused, _options, request, services) {
    return focused.name === "repo" ? suggestRepositories(focused.value, request, services) : [];
  },
};
