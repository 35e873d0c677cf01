import { ApplicationCommandType } from "discord-api-types/v10";
import {
  TARGET_MESSAGE_CONTENT,
  TARGET_MESSAGE_EMBED_LINKS,
  type CommandAnswer,
  type CommandModule,
  type CommandRequest,
} from "../src/bot/commandModule.js";
import { EVERYWHERE } from "../src/bot/commonOptions.js";
import { severalLinks, type LinkOutcome } from "../src/bot/messageMenus.js";
import type { Services } from "../src/bot/services.js";
import { NoGitHubLinkError } from "../src/errors.js";
import { LIMITS } from "../src/format/limits.js";
import type { RepoRef } from "../src/github/types.js";
import { githubLinksOf, type FoundLinks, type GitHubLink } from "../src/input/githubLinks.js";
import { linkHostsOf, MAX_MENU_LINKS } from "../src/input/messageLinks.js";
import { parseRepoArgument } from "../src/input/repoArgument.js";
import { command as commit } from "./commit.js";
import { command as contents } from "./contents.js";
import { command as issue } from "./issue.js";
import { withFields } from "../src/withFields.js";

/** The texts of the message the menu was used on. */
interface PreviewArgs {
  content: string;
  embedLinks: string;
}

/** A bare `#123` as GitHub autolinks it (not a channel mention `<#123>`, not an entity `&#123;`). */
const BARE_REFERENCE = /(?<![\w/&<#.-])#\d{1,9}(?![\w-])/;

function subjectOf(link: GitHubLink): string {
  const repo = `${link.repo.owner}/${link.repo.name}`;
  switch (link.kind) {
    case "issue":
      return `${repo}#${link.number}`;
    case "commit":
      return `${repo}@${link.sha.slice(0, 7)}`;
    default:
      return `${repo} ${link.argument.path ?? ""}`.trim();
  }
}

/** A link answered as its command answers it, within `embedBudget` when it shares the message. */
function answer(
  link: GitHubLink,
  request: CommandRequest,
  services: Services,
  embedBudget?: number,
): Promise<CommandAnswer> {
  const budget = embedBudget !== undefined ? { embedBudget } : {};
  switch (link.kind) {
    case "issue":
      return issue.execute({ repo: link.repo, number: link.number, ...budget }, request, services);
    case "commit":
      return commit.execute({ repo: link.repo, ref: link.sha, ...budget }, request, services);
    default:
      // A file as `Show code` shows it (whole when small and no lines are named); a folder or a
      // repository as `/contents`.
      return contents.execute(
        withFields(
          contents.parse({ repo: link.url }, services),
          link.kind === "file" ? withFields(budget, { wholeIfSmall: true }) : budget,
        ),
        request,
        services,
      );
  }
}

/** The server's default repository, for a bare `#123`; none in a DM or when unset or unreadable. */
async function defaultRepoOf(request: CommandRequest, services: Services): Promise<RepoRef | undefined> {
  if (request.guildId === null) return undefined;
  const saved = await services.settings.getDefaultRepo(request.guildId).catch(() => undefined);
  if (saved === undefined) return undefined;
  try {
    return parseRepoArgument(saved, ["github.com"]).repo;
  } catch {
    return undefined;
  }
}

/**
 * Message menu `Preview links` (SPEC section 1): every GitHub link of the message, up to 5, each
 * answered as its command would (an issue or pull request as `/issue`, a commit as `/commit`, a
 * file as `Show code`, a folder or repository as `/contents`), in one reply. `owner/name#123` is a
 * link, and so is a bare `#123` where the server has a default repository (`/settings repo`).
 */
export const command: CommandModule<PreviewArgs> = {
  data: { type: ApplicationCommandType.Message, name: "Preview links", ...EVERYWHERE },
  threadAsked: () => undefined,
  parse(raw) {
    const textOf = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
    return { content: textOf(TARGET_MESSAGE_CONTENT), embedLinks: textOf(TARGET_MESSAGE_EMBED_LINKS) };
  },
  async execute(args, request, services) {
    const defaultRepo = await defaultRepoOf(request, services);
    const options = {
      webHosts: linkHostsOf(services.config.github.webUrl),
      defaultRepo,
      max: MAX_MENU_LINKS,
    };
    // The links people wrote; failing those, the links of the message's embeds (an answer's own).
    let found: FoundLinks = githubLinksOf(args.content, options);
    if (found.links.length === 0) {
      const inEmbeds = githubLinksOf(args.embedLinks, options);
      found = found.otherHost !== undefined ? withFields(inEmbeds, { otherHost: found.otherHost }) : inEmbeds;
    }
    if (found.links.length === 0) {
      throw new NoGitHubLinkError(
        found.otherHost,
        defaultRepo === undefined && BARE_REFERENCE.test(args.content),
      );
    }
    const [only] = found.links;
    if (only && found.links.length === 1 && found.skipped === 0) return answer(only, request, services);
    const budget = Math.floor(LIMITS.embedTotal / found.links.length);
    const outcomes = await Promise.all(
      found.links.map(async (link): Promise<LinkOutcome> => {
        try {
          return { subject: subjectOf(link), answer: await answer(link, request, services, budget) };
        } catch (error) {
          return { subject: subjectOf(link), error };
        }
      }),
    );
    const answered = outcomes.filter((outcome) => "answer" in outcome);
    if (answered.length === 0) throw (outcomes[0] as { error: unknown }).error;
    return severalLinks(outcomes, found.skipped, request, services, "");
  },
};
