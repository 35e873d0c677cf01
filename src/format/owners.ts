import type { APIEmbed } from "discord-api-types/v10";
import type { OwnersReport } from "../owners/ownersReport.js";
import { RECENT_DAYS } from "../owners/ownersReport.js";
import { MAX_BLAMED_BYTES } from "../owners/selectFiles.js";
import { escapeLabel, inlineCode, truncate } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  discordTimestamp,
  emptyMessage,
  embedUrl,
  footerText,
  formatBytes,
  formatCount,
  linkButton,
  objectUrl,
  rowOf,
  type Freshness,
  type FormattedMessage,
} from "./message.js";

/** The colour of `/owners` answers. */
export const OWNERS_COLOR = 0xa371f7;

/** Authors listed in the text; the rest are counted. */
const SHOWN_AUTHORS = 10;
const LABEL_WIDTH = 40;

/** The chart that goes with the answer: a PNG and its alt text (see ownersChart.ts). */
export interface OwnersChart {
  png: Buffer;
  /** What the chart says, for people who cannot see it (Discord's attachment `description`). */
  alt: string;
}

/** What the `/owners` formatter needs besides the report. */
export interface OwnersMeta {
  freshness: Freshness;
  now: Date;
  /** The ref asked at, or the default branch, for the footer. */
  ref?: string | undefined;
  /** GitHub points this very answer spent (0 when everything came from the cache). */
  pointsSpent: number;
  chart?: OwnersChart | undefined;
}

function percent(share: number): string {
  const value = share * 100;
  return value > 0 && value < 1 ? "<1%" : `${Math.round(value)}%`;
}

/** An author as shown: the login in bold, else the git name (never the e-mail). */
function who(label: string, login: string | null): string {
  const text = escapeLabel(label, LABEL_WIDTH) || "unknown";
  return login ? `**${text}**` : text;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

function codeownersLines(report: OwnersReport): string[] {
  const finding = report.codeowners;
  if (finding.state === "none") {
    return [
      "**CODEOWNERS:** none (GitHub looks in `.github/`, the root and `docs/`): no one owns this by rule.",
    ];
  }
  if (finding.state === "unreadable") {
    return [
      `**CODEOWNERS:** ${inlineCode(finding.path)} is there, but GitHub ignores it (over 3 MB or not text).`,
    ];
  }
  const head = `**CODEOWNERS** (${inlineCode(finding.path)}${finding.skipped > 0 ? `, ${plural(finding.skipped, "line")} GitHub skips` : ""}):`;
  const describe = (entry: (typeof finding.rules)[number]): string => {
    const rule = entry.rule;
    if (!rule) return "no rule matches: no owner";
    const owners =
      rule.owners.length === 0
        ? "names no owners: no owner"
        : rule.owners.map((owner) => inlineCode(truncate(owner, 100))).join(" ");
    return `line ${formatCount(rule.line)} ${inlineCode(truncate(rule.pattern, 200))} → ${owners}`;
  };
  if (report.kind === "file") return [`${head} ${describe(finding.rules[0] ?? { rule: null, files: 1 })}`];
  const lines = [head];
  for (const entry of finding.rules.slice(0, 5))
    lines.push(`• ${describe(entry)} (${plural(entry.files, "file")})`);
  if (finding.rules.length > 5) lines.push(`• … ${plural(finding.rules.length - 5, "more rule")}`);
  return lines;
}

function countedLine(report: OwnersReport): string | null {
  if (report.kind === "file") {
    if (report.selection.binary.length > 0) return "This file is binary: it has no lines to count.";
    if (report.selection.tooLarge.length > 0)
      return `This file is over ${formatBytes(MAX_BLAMED_BYTES)}: its lines are not counted (GitHub cuts its text there).`;
    if (report.failed.length > 0) return "GitHub could not blame this file in time; try again later.";
    return null;
  }
  const { selection } = report;
  const read = selection.read.length - report.failed.length;
  const parts = [
    `**Counted:** ${formatCount(read)} of ${plural(selection.total, "file")}, the largest text files first`,
  ];
  // Binary and too-large files are named beside their count (up to 3 in all), in the same clause.
  let namesLeft = 3;
  const named = (paths: readonly string[]): string => {
    const shown = paths.slice(0, namesLeft).map((path) => inlineCode(truncate(path, 80)));
    namesLeft -= shown.length;
    return shown.length > 0 ? ` (${shown.join(", ")}${paths.length > shown.length ? ", …" : ""})` : "";
  };
  const out: string[] = [];
  if (selection.binary.length > 0)
    out.push(`${formatCount(selection.binary.length)} binary${named(selection.binary)}`);
  if (selection.tooLarge.length > 0)
    out.push(
      `${formatCount(selection.tooLarge.length)} over ${formatBytes(MAX_BLAMED_BYTES)}${named(selection.tooLarge)}`,
    );
  if (selection.beyondLimit.length > 0)
    out.push(`${formatCount(selection.beyondLimit.length)} past the first 100`);
  if (report.failed.length > 0)
    out.push(`${formatCount(report.failed.length)} GitHub could not blame in time`);
  if (selection.deeperFolders.length > 0)
    out.push(`the files of ${plural(selection.deeperFolders.length, "folder")} nested too deep`);
  if (out.length > 0) parts.push(`left out: ${out.join(", ")}`);
  return `${parts.join("; ")}.`;
}

/**
 * The answer of `/owners`: who knows a file or a folder. The authors by the lines they last changed
 * (lines, share, newest change), the bus factor, the commits of the last 90 days by author, the
 * CODEOWNERS rule (file and line) or rules, what was counted and left out, and the chart as a PNG
 * attachment with its alt text. The footer names the pinned commit and the GitHub points spent.
 */
export function formatOwners(report: OwnersReport, meta: OwnersMeta): FormattedMessage {
  const where = report.path === "" ? report.repo : `${report.repo} ${report.path}`;
  const title = escapeLabel(`Owners of ${where}`, LIMITS.title);
  const lines: string[] = [];
  if (report.totalLines === 0) {
    lines.push("No lines to count here, so no authors by lines.");
  } else {
    lines.push(`**Authors by the lines they last changed** (${plural(report.totalLines, "line")}):`);
    report.shares.slice(0, SHOWN_AUTHORS).forEach((row, index) => {
      const newest = discordTimestamp(row.newest) ?? "an unknown time";
      lines.push(
        `${index + 1}. ${who(row.label, row.login)} · ${plural(row.lines, "line")} · ${percent(row.share)} · newest ${newest}`,
      );
    });
    if (report.shares.length > SHOWN_AUTHORS) {
      lines.push(`… ${plural(report.shares.length - SHOWN_AUTHORS, "more author")}`);
    }
    lines.push(
      `**Bus factor: ${formatCount(report.busFactor)}** (the fewest authors who last changed half of these lines)`,
    );
  }
  const recent =
    report.recent.length === 0
      ? "none"
      : report.recent
          .slice(0, SHOWN_AUTHORS)
          .map((row) => `${who(row.label, row.login)} ${formatCount(row.commits)}`)
          .join(" · ") + (report.recent.length > SHOWN_AUTHORS ? " · …" : "");
  lines.push(
    `**Commits in the last ${RECENT_DAYS} days:** ${recent}${report.recentCapped ? " (of the newest 100 of the year)" : ""}`,
  );
  lines.push(...codeownersLines(report));
  const counted = countedLine(report);
  if (counted) lines.push(counted);

  const url = objectUrl(
    report.repoUrl,
    report.kind === "file" ? "blob" : "tree",
    report.commit.oid,
    report.path,
  );
  const spent = meta.pointsSpent === 0 ? "no GitHub points spent" : plural(meta.pointsSpent, "GitHub point");
  const embed: APIEmbed = {
    title,
    color: OWNERS_COLOR,
    description: lines.join("\n"),
    footer: { text: `${footerText(meta.freshness, meta.now, report.commit.oid, meta.ref)} · ${spent}` },
  };
  const link = embedUrl(url);
  if (link) embed.url = link;
  const message = emptyMessage();
  if (meta.chart) {
    const name = "owners.png";
    embed.image = { url: `attachment://${name}` };
    message.files.push({ name, data: meta.chart.png, description: truncate(meta.chart.alt, 1024) });
  }
  message.embeds.push(embed);
  const row = rowOf([linkButton("Open on GitHub", url)]);
  if (row) message.components.push(row);
  return fitMessage(message);
}
