import { ApplicationCommandType } from "discord-api-types/v10";
import type { CommandModule } from "../src/bot/commandModule.js";
import { EVERYWHERE, refOption, repoOption, threadOption } from "../src/bot/commonOptions.js";
import {
  folderOrFileOption,
  parseRepoPathArguments,
  repoPathSubject,
  type RepoPathArgs,
} from "../src/bot/repoPathArguments.js";
import { formatThreadSummary, threadName } from "../src/format/error.js";
import { freshnessText, type FormattedMessage } from "../src/format/message.js";
import { formatOwners } from "../src/format/owners.js";
import { ownersChartSvg } from "../src/format/ownersChart.js";
import { ownersReport, recentWindowCount } from "../src/owners/ownersReport.js";
import { renderPng } from "../src/owners/renderChart.js";
import { autocompleteRepoAndPath } from "../src/answers/autocomplete.js";

/** `/owners`: who knows a file or a folder, by blame, history and CODEOWNERS, with a chart. */
export const command: CommandModule<RepoPathArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "owners",
    ...EVERYWHERE,
    description: "Show who knows a file or folder: authors by lines, recent commits, CODEOWNERS",
    options: [
      repoOption,
      folderOrFileOption("A file or folder, like src (default: the root)"),
      refOption,
      threadOption,
    ],
  },
  threadAsked: (args) => args.thread,
  parse: parseRepoPathArguments,
  async execute(args, request, services) {
    const fetched = await services.scout.owners(request, {
      repo: args.repo,
      path: args.path,
      ...(args.ref !== undefined ? { ref: args.ref } : {}),
    });
    const now = services.now();
    const answer = fetched.value;
    const ref = args.ref ?? answer.tree.repository.defaultBranch ?? undefined;
    const subject = repoPathSubject(args.repo, args.path);
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
