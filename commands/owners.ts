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
import { formatOwners } from "../src/format/owners.js";
import { ownersChartSvg } from "../src/format/ownersChart.js";
import { ownersReport } from "../src/owners/ownersReport.js";
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
    const report = ownersReport(fetched.value, now);
    const chart = ownersChartSvg(report, now);
    const ref = args.ref ?? fetched.value.tree.repository.defaultBranch ?? undefined;
    const subject = repoPathSubject(args.repo, args.path);
    return {
      message: formatOwners(report, {
        freshness: fetched.freshness,
        now,
        ref,
        pointsSpent: fetched.pointsSpent,
        chart: { png: renderPng(chart.svg), alt: chart.alt },
      }),
      threadName: threadName("owners", subject),
      summary: formatThreadSummary("owners", subject),
      ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    };
  },
  autocomplete: autocompleteRepoAndPath,
};
