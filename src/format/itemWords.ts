import type { ChecksSummary, ItemReference, ItemState } from "../github/issueTypes.js";
import { escapeLabel, escapeMarkdown, sanitizeSingleLine, truncate } from "./escape.js";
import { formatCount, maskedLink } from "./message.js";

/**
 * The words, marks and colours shared by the issue, pull request and commit answers, full and
 * compact: pure functions of answer data.
 */

/** GitHub's own colours for each state, so the embed's edge reads as it does on GitHub. */
export const STATE_COLORS: Record<ItemState, number> = {
  open: 0x1f883d,
  draft: 0x6e7781,
  merged: 0x8250df,
  completed: 0x8250df,
  notPlanned: 0x6e7781,
  closed: 0xcf222e,
};

/** The colour of commit answers. */
export const COMMIT_COLOR = 0x0969da;

const STATE_MARKS: Record<ItemState, string> = {
  open: "🟢",
  draft: "⚪",
  merged: "🟣",
  completed: "🟣",
  notPlanned: "⚪",
  closed: "🔴",
};

/** "Open", "Merged", "Closed as not planned"... for an issue or a pull request. */
export function stateWords(state: ItemState, kind: "issue" | "pullRequest"): string {
  switch (state) {
    case "open":
      return "Open";
    case "draft":
      return "Draft";
    case "merged":
      return "Merged";
    case "completed":
      return "Closed as completed";
    case "notPlanned":
      return "Closed as not planned";
    case "closed":
      return kind === "pullRequest" ? "Closed without merging" : "Closed";
  }
}

/** The state with its mark: "🟣 Merged". */
export function stateLabel(state: ItemState, kind: "issue" | "pullRequest"): string {
  return `${STATE_MARKS[state]} ${stateWords(state, kind)}`;
}

/** "✅ 3 passing · ❌ 1 failing · ⏳ 2 pending" (parts with a count of 0 left out), or "no checks". */
export function checksText(checks: ChecksSummary | null): string {
  if (checks === null) return "no checks";
  const parts = [
    checks.failing > 0 ? `❌ ${formatCount(checks.failing)} failing` : "",
    checks.pending > 0 ? `⏳ ${formatCount(checks.pending)} pending` : "",
    checks.passing > 0 ? `✅ ${formatCount(checks.passing)} passing` : "",
  ].filter((part) => part !== "");
  return parts.length > 0 ? parts.join(" · ") : "no checks";
}

/** "+12 −3" with a true minus sign, as GitHub shows it; "in 2 files" when a count is given. */
export function changesText(additions: number, deletions: number, files?: number | null): string {
  const counted =
    files === undefined
      ? ""
      : files === null
        ? " in many files"
        : ` in ${formatCount(files)} ${files === 1 ? "file" : "files"}`;
  return `+${formatCount(additions)} −${formatCount(deletions)}${counted}`;
}

/** A login as text: bold and escaped; `ghost` (as GitHub shows it) for a deleted account. */
export function loginText(login: string | null): string {
  return login === null ? "ghost" : `**${escapeLabel(login, 39 * 2)}**`;
}

/** "#12" linked, then its title, cut and escaped, then its state's mark. */
export function referenceText(reference: ItemReference, kind: "issue" | "pullRequest", width = 60): string {
  return `${maskedLink(`#${reference.number}`, reference.url)} ${escapeLabel(reference.title, width)} (${stateWords(reference.state, kind).toLowerCase()})`;
}

/** Lines of a body shown before it is cut. */
const BODY_LINES = 8;

/**
 * The start of a markdown body, safe to show as text: HTML comments (issue templates) dropped, at
 * most 8 lines and `max` characters of the raw text, every markdown character escaped (a fence,
 * a mention or a masked link in it is only text), and a visible "…" where it was cut.
 */
export function bodyExcerpt(body: string, max: number): string {
  const clean = String(body)
    .replace(/\r\n?/g, "\n")
    .replace(/<!--[\s\S]*?(?:-->|$)/g, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (clean === "" || max <= 0) return "";
  const lines = clean.split("\n");
  const raw = lines
    .slice(0, BODY_LINES)
    .map((line) => sanitizeSingleLine(line))
    .join("\n");
  // Room for "\n…" when lines were left out.
  const room = Math.max(0, Math.floor(max) - 2);
  let keep = Math.min(raw.length, room);
  let text = escapeMarkdown(truncate(raw, keep));
  // Escaping can double the length: cut the raw text shorter until the escaped text fits.
  while (text.length > room && keep > 0) {
    keep = Math.max(0, keep - Math.max(1, Math.ceil((text.length - room) / 2)));
    text = escapeMarkdown(truncate(raw, keep));
  }
  return lines.length > BODY_LINES && keep === raw.length ? `${text}\n…` : text;
}
