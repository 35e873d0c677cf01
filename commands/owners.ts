import { ApplicationCommandOptionType, ApplicationCommandType } from "discord-api-types/v10";
import { z } from "zod";
import type { CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, parseWith, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type FormattedMessage } from "../src/format/message.js";
import { formatOwners } from "../src/format/owners.js";
import { ownersChartSvg } from "../src/format/ownersChart.js";
import type { RepoRef } from "../src/github/types.js";
import { parsePath } from "../src/input/pathArgument.js";
import { parseRef } from "../src/input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";
import { ownersReport, recentWindowCount } from "../src/owners/ownersReport.js";
import { renderPng } from "../src/owners/renderChart.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";

interface OwnersArgs {
  repo: RepoRef;
  /** "" for the root. */
  path: string;
  ref?: string;
  thread?: boolean;
}

const rawSchema = z.object({
  repo: z.string(),
  path: z.string().optional(),
  ref: z.string().optional(),
  thread: z.boolean().optional(),
});

/** `/owners`: who knows a file or a folder, by blame, history and CODEOWNERS, with a chart. */
export const command: CommandModule<OwnersArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "owners",
    ...EVERYWHERE,
    description: "Show who knows a file or folder: authors by lines, recent commits, CODEOWNERS",
    options: [
      repoOption,
      {
        type: ApplicationCommandOptionType.String,
        name: "path",
        description: "A file or folder, like src (default: the root)",
        required: false,
        autocomplete: true,
        max_length: 4096,
      },
      refOption,
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  parse(options, services) {
    const raw = parseWith(rawSchema, options);
    const fromRepo = parseRepoArgument(raw.repo, webHostsOf(services.config.github.webUrl));
    // A URL that can be split several ways is read the likeliest way (its first split).
    const path = raw.path !== undefined ? parsePath(raw.path) : (fromRepo.path ?? "");
    const ref = raw.ref !== undefined ? parseRef(raw.ref) : fromRepo.ref;
    return {
      repo: fromRepo.repo,
      path,
      ...(ref !== undefined ? { ref } : {}),
      ...(raw.thread !== undefined ? { thread: raw.thread } : {}),
    };
  },
  async execute(args, request, services) {
    const fetched = await services.scout.owners(request, {
      repo: args.repo,
      path: args.path,
      ...(args.ref !== undefined ? { ref: args.ref } : {}),
    });
    const now = services.now();
    const answer = fetched.value;
    const ref = args.ref ?? answer.tree.repository.defaultBranch ?? undefined;
    const repoName = `${args.repo.owner}/${args.repo.name}`;
    const subject = args.path === "" ? repoName : `${repoName} ${args.path}`;
    // The answer is made of two pinned answers (the tree, the blame); the clock shapes the footer,
    // the commits inside the 90-day window and the chart's twelve months.
    const variant = [
      freshnessText(fetched.freshness, now),
      ref,
      fetched.pointsSpent,
      recentWindowCount(answer.tree.recent, now),
      now.getUTCFullYear() * 12 + now.getUTCMonth(),
    ];
    const render = (): FormattedMessage => {
      const report = ownersReport(answer, now);
      const chart = ownersChartSvg(report, now);
      return formatOwners(report, {
        freshness: fetched.freshness,
        now,
        ref,
        pointsSpent: fetched.pointsSpent,
        chart: { png: services.rendered.png(chart.svg, renderPng), alt: chart.alt },
      });
    };
    return {
      message: services.rendered.message([answer.tree, answer.blamed], variant, render),
      threadName: threadName("owners", subject),
      summary: formatThreadSummary("owners", subject),
      ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    };
  },
  autocomplete: autocompleteRepoAndPath,
};
