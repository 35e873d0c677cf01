import { ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import {
  folderOrFileOption,
  parseRepoPathArguments,
  repoPathSubject,
  type RepoPathArgs,
} from "../src/bot/repoPathArguments.js";
import type { Services } from "../src/bot/services.js";
import { ExpiredComponentError } from "../src/errors.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { formatHistory } from "../src/format/history.js";
import { freshnessText, type NavigationButtons } from "../src/format/message.js";
import type { RepoRef } from "../src/github/types.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";
import { HISTORY_PAGE_SIZE } from "../src/answers/ownershipAnswers.js";
import type { Asker } from "../src/answers/scout.js";
import { withFields } from "../src/withFields.js";

/**
 * The state behind Previous / Next: the commit the first page was pinned to (every page reads from
 * it, so a push in between shifts nothing), the ref it was asked at (for the footer), and the
 * `after` cursor of every page so far (`cursors[i]` opens page i + 1; page 1 has none).
 */
const buttonStateSchema = z.object({
  repo: z.object({ owner: z.string(), name: z.string() }),
  oid: z.string(),
  path: z.string(),
  ref: z.string().optional(),
  cursors: z.array(z.string().nullable()).min(1).max(1000),
});
type HistoryButtonState = z.infer<typeof buttonStateSchema>;

async function page(
  args: { repo: RepoRef; path: string; readAt?: string; ref?: string; cursors: Array<string | null> },
  asker: Asker,
  services: Services,
): Promise<CommandAnswer> {
  const after = args.cursors.at(-1) ?? null;
  const fetched = await services.scout.history(asker, {
    repo: args.repo,
    path: args.path,
    ...(args.readAt !== undefined ? { ref: args.readAt } : {}),
    ...(after !== null ? { after } : {}),
  });
  const result = fetched.value;
  const ref = args.ref ?? result.repository.defaultBranch ?? undefined;
  const base: Omit<HistoryButtonState, "cursors"> = {
    repo: args.repo,
    oid: result.commit.oid,
    path: args.path,
    ...(ref !== undefined ? { ref } : {}),
  };
  const buttons: NavigationButtons = {};
  if (args.cursors.length > 1) {
    buttons.previous = `history:${await services.buttons.put(withFields(base, { cursors: args.cursors.slice(0, -1) }))}`;
  }
  if (result.hasNextPage && result.endCursor) {
    buttons.next = `history:${await services.buttons.put(withFields(base, { cursors: [...args.cursors, result.endCursor] }))}`;
  }
  const repoName = `${args.repo.owner}/${args.repo.name}`;
  const subject = repoPathSubject(args.repo, args.path);
  const now = services.now();
  return {
    message: services.rendered.message(
      [result],
      [freshnessText(fetched.freshness, now), repoName, args.cursors.length, buttons, ref],
      () =>
        formatHistory(
          result,
          { repo: repoName, page: args.cursors.length, pageSize: HISTORY_PAGE_SIZE },
          { freshness: fetched.freshness, now, buttons, ref },
        ),
    ),
    threadName: threadName("history", subject),
    summary: formatThreadSummary("history", subject),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
  };
}

/** `/history`: the latest commits that touched a file or a folder, newest first, 10 a page. */
export const command: CommandModule<RepoPathArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "history",
    ...EVERYWHERE,
    description: "Show the latest commits that touched a file or a folder",
    options: [
      repoOption,
      folderOrFileOption("A file or folder, like src/app.ts (default: the whole repository)"),
      refOption,
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  customIdPrefixes: ["history"],
  parse: parseRepoPathArguments,
  execute(args, request, services) {
    return page(
      {
        repo: args.repo,
        path: args.path,
        ...(args.ref !== undefined ? { readAt: args.ref, ref: args.ref } : {}),
        cursors: [null],
      },
      request,
      services,
    );
  },
  async button(context, services) {
    const state = buttonStateSchema.safeParse(
      await services.buttons.get(context.customId.slice("history:".length)),
    );
    if (!state.success) throw new ExpiredComponentError("history");
    const { repo, oid, path, ref, cursors } = state.data;
    return page(
      { repo, path, readAt: oid, ...(ref !== undefined ? { ref } : {}), cursors },
      context.request,
      services,
    );
  },
  autocomplete: autocompleteRepoAndPath,
};
