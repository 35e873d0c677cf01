/**
 * The `/owners` chart as SVG: each author's share of the lines as a bar, and their commits of each
 * of the last 12 months as a strip of cells, with the alt text that says the same in words. Pure:
 * src/owners/renderChart.ts turns the SVG into a PNG. Every text from a repository is escaped for
 * XML, so a hostile author name is text in the picture, never markup.
 */
import type { OwnersReport } from "../owners/ownersReport.js";
import { sanitizeSingleLine, truncate } from "./escape.js";
import { shortOid } from "./message.js";

/** Width of the chart in pixels. */
export const CHART_WIDTH = 800;

/** Authors drawn; the others are summed in one last row. */
const CHART_AUTHORS = 8;
const ROW = 34;
const TOP = 78;
const BAR_X = 210;
const BAR_WIDTH = 330;
const STRIP_X = 588;
const CELL = 14;
const CELL_GAP = 1;
const FONT = "Noto Sans";

const PALETTE = ["#8957e5", "#2f81f7", "#3fb950", "#d29922", "#f0883e", "#db61a2", "#1f9ebc", "#a371f7"];

/** The SVG of a chart and what it shows in words. */
export interface ChartSvg {
  svg: string;
  width: number;
  height: number;
  alt: string;
}

// XML 1.0 allows no C0 controls but tab, line feed and return (sanitizeSingleLine has made those
// spaces), nor U+FFFE, U+FFFF.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u001f\u007f\ufffe\uffff]/g;

/** Text made safe inside an XML element or attribute: escaped, no control characters, one line. */
export function xmlText(text: string): string {
  return (
    sanitizeSingleLine(text)
      .replace(XML_FORBIDDEN, "")
      // Nor lone surrogates.
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;")
  );
}

function percent(share: number): string {
  const value = share * 100;
  return value > 0 && value < 1 ? "<1%" : `${Math.round(value)}%`;
}

interface ChartRow {
  label: string;
  share: number;
  lines: number;
  months: number[];
}

function rowsOf(report: OwnersReport): ChartRow[] {
  const rows: ChartRow[] = report.shares.slice(0, CHART_AUTHORS).map((share) => ({
    label: share.label,
    share: share.share,
    lines: share.lines,
    months: report.monthly[share.key] ?? new Array<number>(12).fill(0),
  }));
  const rest = report.shares.slice(CHART_AUTHORS);
  if (rest.length > 0) {
    const months = new Array<number>(12).fill(0);
    for (const share of rest) {
      (report.monthly[share.key] ?? []).forEach(
        (count, index) => (months[index] = (months[index] ?? 0) + count),
      );
    }
    rows.push({
      label: `${rest.length} others`,
      share: rest.reduce((sum, share) => sum + share.share, 0),
      lines: rest.reduce((sum, share) => sum + share.lines, 0),
      months,
    });
  }
  return rows;
}

/** The alt text: the title, each author's share, their commits of the year, the bus factor. */
function altText(report: OwnersReport, rows: readonly ChartRow[], where: string): string {
  if (rows.length === 0) return truncate(`Chart of the owners of ${where}: no lines to count.`, 1024);
  const shares = rows.map((row) => `${sanitizeSingleLine(row.label)} ${percent(row.share)}`).join(", ");
  const commits = rows
    .map((row) => `${sanitizeSingleLine(row.label)} ${row.months.reduce((sum, count) => sum + count, 0)}`)
    .join(", ");
  return truncate(
    `Bar chart of the share of the ${report.totalLines} lines of ${where} each author last changed: ${shares}. ` +
      `Commits in the last 12 months: ${commits}. Bus factor ${report.busFactor}.`,
    1024,
  );
}

/**
 * The chart of an `/owners` report: a title, one row per author (the 8 with the most lines, then
 * the others together) with a bar of their share and a strip of 12 monthly cells whose darkness
 * grows with their commits that month, and a line with the bus factor and the pinned commit.
 */
export function ownersChartSvg(report: OwnersReport, now: Date): ChartSvg {
  const where = report.path === "" ? report.repo : `${report.repo} ${report.path}`;
  const rows = rowsOf(report);
  const height = TOP + Math.max(1, rows.length) * ROW + 44;
  const most = Math.max(1, ...rows.flatMap((row) => row.months));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" font-family="${FONT}">`,
    `<rect width="${CHART_WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="32" font-size="20" font-weight="bold" fill="#1f2328">${xmlText(truncate(`Owners of ${where}`, 70))}</text>`,
    `<text x="16" y="60" font-size="13" fill="#59636e">Share of the ${report.totalLines.toLocaleString("en-US")} lines each author last changed</text>`,
    `<text x="${STRIP_X}" y="60" font-size="13" fill="#59636e">Commits, last 12 months</text>`,
  ];
  if (rows.length === 0) {
    parts.push(`<text x="16" y="${TOP + 22}" font-size="15" fill="#1f2328">No lines to count.</text>`);
  }
  rows.forEach((row, index) => {
    const y = TOP + index * ROW;
    // The summed "others" row is grey, apart from every named author.
    const color = index >= CHART_AUTHORS ? "#8c959f" : PALETTE[index % PALETTE.length]!;
    const width = Math.max(row.share > 0 ? 2 : 0, Math.round(row.share * BAR_WIDTH));
    parts.push(
      `<text x="16" y="${y + 21}" font-size="15" fill="#1f2328">${xmlText(truncate(row.label, 21))}</text>`,
      `<rect x="${BAR_X}" y="${y + 6}" width="${BAR_WIDTH}" height="20" rx="3" fill="#eff2f5"/>`,
      `<rect x="${BAR_X}" y="${y + 6}" width="${width}" height="20" rx="3" fill="${color}"/>`,
      `<text x="${BAR_X + BAR_WIDTH + 8}" y="${y + 21}" font-size="14" fill="#1f2328">${xmlText(percent(row.share))}</text>`,
    );
    row.months.forEach((count, month) => {
      const opacity = count === 0 ? 1 : 0.25 + 0.75 * (count / most);
      const fill = count === 0 ? "#eff2f5" : color;
      parts.push(
        `<rect x="${STRIP_X + month * (CELL + CELL_GAP)}" y="${y + 9}" width="${CELL}" height="${CELL}" rx="2" fill="${fill}" fill-opacity="${opacity.toFixed(2)}"/>`,
      );
    });
    const total = row.months.reduce((sum, count) => sum + count, 0);
    parts.push(
      `<text x="${STRIP_X + 12 * (CELL + CELL_GAP) + 6}" y="${y + 21}" font-size="13" fill="#59636e">${total}</text>`,
    );
  });
  // The strip's ends: the oldest month on the left, this month on the right.
  const monthName = (date: Date): string =>
    date.toLocaleString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const stripEnd = STRIP_X + 12 * (CELL + CELL_GAP) - CELL_GAP;
  const labelsY = TOP + Math.max(1, rows.length) * ROW + 4;
  parts.push(
    `<text x="${STRIP_X}" y="${labelsY}" font-size="11" fill="#59636e">${xmlText(monthName(first))}</text>`,
    `<text x="${stripEnd}" y="${labelsY}" font-size="11" fill="#59636e" text-anchor="end">${xmlText(monthName(now))}</text>`,
    `<text x="16" y="${height - 16}" font-size="13" fill="#59636e">Bus factor ${report.busFactor} · pinned to ${xmlText(shortOid(report.commit.oid))}</text>`,
    "</svg>",
  );
  return { svg: parts.join("\n"), width: CHART_WIDTH, height, alt: altText(report, rows, where) };
}
