import { ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import type { CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, parseWith, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import { formatCommit } from "../src/format/commit.js";
import { freshnessText } from "../src/format/message.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import type { RepoRef } from "../src/github/types.js";
import { githubLinksOf } from "../src/input/githubLinks.js";
import { parseRef } from "../src/input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";

/** The arguments of `/commit` (and of `Preview links` for a commit link). */
export interface CommitArgs {
  repo: RepoRef;
  ref?: string;
  thread?: boolean;
  embedBudget?: number;
}

const rawSchema = z.object({
  repo: z.string(),
  ref: z.string().optional(),
  thread: z.boolean().optional(),
});

/** Reads `repo` as `/commit` takes it: a commit URL fills the ref, else as every `repo` option. */
export function parseCommitRepo(value: string, webHosts: readonly string[]): { repo: RepoRef; ref?: string } {
  const [link] = githubLinksOf(value.trim(), { webHosts, max: 1 }).links;
  if (link?.kind === "commit") return { repo: link.repo, ref: link.sha };
  const parsed = parseRepoArgument(value, webHosts);
  return { repo: parsed.repo, ...(parsed.ref !== undefined ? { ref: parsed.ref } : {}) };
}

/** `/commit`: a commit's headline, people, changes, checks, pull requests and files. */
export const command: CommandModule<CommitArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "commit",
    ...EVERYWHERE,
    description: "Show a commit: message, authors, changes, checks, files",
    options: [
      { ...repoOption, description: "owner/name, or the URL of a commit" },
      { ...refOption, description: "Commit id, branch or tag (default: the default branch)" },
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseCommitRepo(raw.repo, webHostsOf(services.config.github.webUrl));
    const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
    return {
      repo: fromRepo.repo,
      ...(ref !== undefined ? { ref } : {}),
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  async execute(args, request, services) {
    const fetched = await services.scout.commit(request, {
      repo: args.repo,
      ...(args.ref !== undefined ? { ref: args.ref } : {}),
    });
    const answer = fetched.value;
    const subject = `${args.repo.owner}/${args.repo.name}@${args.ref ?? answer.abbreviatedOid}`;
    const now = services.now();
    const ref = args.ref ?? answer.repository.defaultBranch ?? undefined;
    return {
      message: services.rendered.message(
        [answer],
        [freshnessText(fetched.freshness, now), ref, args.embedBudget],
        () => formatCommit(answer, { freshness: fetched.freshness, now, ref, embedBudget: args.embedBudget }),
      ),
      threadName: threadName("commit", subject),
      summary: formatThreadSummary("commit", subject),
      ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    };
  },
  autocomplete: autocompleteRepoAndPath,
};
