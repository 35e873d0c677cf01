import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import type { CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, parseWith, repoOption, threadOption } from "../src/bot/commonOptions.js";
import { InvalidOptionError } from "../src/errors.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { formatIssue } from "../src/format/issue.js";
import { freshnessText } from "../src/format/message.js";
import type { RepoRef } from "../src/github/types.js";
import { githubLinksOf } from "../src/input/githubLinks.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";

/** The arguments of `/issue` (and of `Preview links` for an issue or pull request link). */
export interface IssueArgs {
  repo: RepoRef;
  number: number;
  thread?: boolean;
  /** The answer shares a message with others (a message menu on several links): its embed's room. */
  embedBudget?: number;
}

const rawSchema = z.object({
  repo: z.string(),
  number: z.number().int().min(1).max(2_147_483_647).optional(),
  thread: z.boolean().optional(),
});

/**
 * Reads `repo` as `/issue` takes it: an issue or pull request URL (or `owner/name#N`), which fills
 * the number, else `owner/name` or a repository URL.
 */
export function parseIssueRepo(
  value: string,
  webHosts: readonly string[],
): { repo: RepoRef; number?: number } {
  const [link] = githubLinksOf(value.trim(), { webHosts, max: 1 }).links;
  if (link?.kind === "issue") return { repo: link.repo, number: link.number };
  return { repo: parseRepoArgument(value, webHosts).repo };
}

/** `/issue`: an issue or a pull request, with its state, people, checks and links. */
export const command: CommandModule<IssueArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "issue",
    ...EVERYWHERE,
    description: "Show an issue or a pull request: state, people, checks",
    options: [
      { ...repoOption, description: "owner/name, or the URL of an issue or a pull request" },
      {
        type: ApplicationCommandOptionType.Integer,
        name: "number",
        description: "Issue or pull request number (not needed when repo is its URL)",
        required: false,
        min_value: 1,
      },
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseIssueRepo(raw.repo, webHostsOf(services.config.github.webUrl));
    const number = raw.number ?? fromRepo.number;
    if (number === undefined) {
      throw new InvalidOptionError(
        "number",
        "is needed: give the issue or pull request number, or its URL as `repo`.",
      );
    }
    return { repo: fromRepo.repo, number, ...(raw.thread !== undefined ? { thread: raw.thread } : {}) };
  },
  async execute(args, request, services) {
    const fetched = await services.scout.issue(request, { repo: args.repo, number: args.number });
    const subject = `${args.repo.owner}/${args.repo.name}#${args.number}`;
    const now = services.now();
    return {
      message: services.rendered.message(
        [fetched.value],
        [freshnessText(fetched.freshness, now), args.embedBudget],
        () =>
          formatIssue(fetched.value, { freshness: fetched.freshness, now, embedBudget: args.embedBudget }),
      ),
      threadName: threadName("issue", subject),
      summary: formatThreadSummary("issue", subject),
      ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    };
  },
  autocomplete: autocompleteRepoAndPath,
};
