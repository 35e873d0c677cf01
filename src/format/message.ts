import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from "discord-api-types/v10";
import { defusePlainText, sanitizeSingleLine, truncate } from "./escape.js";
import { LIMITS } from "./limits.js";

/**
 * A reply as plain data: what every formatter returns and what `bot/` turns into discord.js
 * options. Mentions never parse, whatever the text holds.
 */
export interface FormattedMessage {
  content?: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
  files: Array<{ name: string; data: Buffer; description?: string }>;
  allowedMentions: { parse: [] };
}

/** How fresh an answer is: when it was fetched from GitHub, and whether it came from the cache. */
export interface Freshness {
  /** ISO 8601. */
  fetchedAt: string;
  fromCache: boolean;
}

/** Custom ids of the Previous / Next buttons; a button without one is shown disabled. */
export interface NavigationButtons {
  previous?: string;
  next?: string;
}

/** What every paged answer's formatter needs besides its data. */
export interface PagedAnswerMeta {
  freshness: Freshness;
  now: Date;
  buttons?: NavigationButtons;
  /**
   * The ref an answer pinned to a commit was asked at (a branch, a tag), or the default branch when
   * none was given; shown in the footer before the commit (see `footerText`).
   */
  ref?: string | undefined;
  /**
   * The characters of Discord's 6,000 over a message's embeds that this answer may use (default all
   * of them): less when it shares one message with other answers (a message menu on several links).
   */
  embedBudget?: number | undefined;
}

/** The share of a message's 6,000 embed characters an answer may use (see `PagedAnswerMeta.embedBudget`). */
export function embedRoom(meta: { embedBudget?: number | undefined }): number {
  return Math.min(LIMITS.embedTotal, meta.embedBudget ?? LIMITS.embedTotal);
}

/** Embed colours, one per kind of answer, so a glance tells them apart. */
export const COLORS = {
  blame: 0xf0883e,
  contents: 0x2f81f7,
  repositories: 0x8957e5,
  contributors: 0x3fb950,
  whoami: 0x6e7681,
  notice: 0x3fb950,
  error: 0xda3633,
} as const;

/** Custom ids of disabled buttons: they can never be pressed, and no command owns the prefix. */
const DISABLED_PREFIX = "noop";

/**
 * "fetched now", "cached just now", "cached 5 min ago", "cached 3 h ago", "cached 2 days ago"
 * against the injected `now`. A timestamp in the future (clock skew) reads as "just now".
 */
export function freshnessText(freshness: Freshness, now: Date): string {
  if (!freshness.fromCache) return "fetched now";
  const fetched = Date.parse(freshness.fetchedAt);
  const nowMs = now.getTime();
  if (!Number.isFinite(fetched) || !Number.isFinite(nowMs)) return "cached";
  const minutes = Math.floor((nowMs - fetched) / 60_000);
  if (minutes < 1) return "cached just now";
  if (minutes < 60) return `cached ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `cached ${hours} h ago`;
  return `cached ${Math.floor(hours / 24)} days ago`;
}

/**
 * A commit id as shown to people: GitHub's abbreviation when it is 7..12 characters, else the
 * first 7 characters of the full id. Only hex-like characters survive, so it is safe anywhere.
 */
export function shortOid(oid: string, abbreviated?: string | null): string {
  if (abbreviated && SHORT_OID.test(abbreviated)) return abbreviated;
  const clean = (value: string) => value.replace(/[^0-9a-zA-Z]/g, "");
  const abbrev = clean(abbreviated ?? "");
  if (abbrev.length >= 7 && abbrev.length <= 12) return abbrev;
  const full = clean(oid);
  return full.length > 0 ? full.slice(0, 7) : "unknown";
}

const SHORT_OID = /^[0-9a-zA-Z]{7,12}$/;

/** Characters of a ref shown in a footer. */
const FOOTER_REF_WIDTH = 100;

/**
 * The footer text: freshness, then, for an answer pinned to a commit, the ref it was asked at and
 * the commit: "fetched now · v1.0.0 · pinned to 4e0d166". A ref that is the commit id itself (or
 * its beginning, `ref:4e0d166`) is not said twice. Footers render no markdown: the ref is made one
 * line, cut, and defused (see `defusePlainText`), never backslash-escaped.
 */
export function footerText(freshness: Freshness, now: Date, pinnedOid?: string, ref?: string): string {
  const parts = [freshnessText(freshness, now)];
  if (pinnedOid !== undefined) {
    const label = defusePlainText(truncate(sanitizeSingleLine(ref ?? ""), FOOTER_REF_WIDTH));
    if (label !== "" && !namesCommit(label, pinnedOid)) parts.push(label);
    parts.push(`pinned to ${shortOid(pinnedOid)}`);
  }
  return parts.join(" · ");
}

/** Whether a ref is the commit id, or an abbreviation of it (4 or more hex digits, as git takes). */
function namesCommit(ref: string, oid: string): boolean {
  return /^[0-9a-f]{4,64}$/i.test(ref) && oid.toLowerCase().startsWith(ref.toLowerCase());
}

/**
 * A row of navigation buttons: Previous and Next (disabled when the caller has no custom id for
 * them), and a Link button when a URL is given (see `linkButton`).
 */
export function navigationRow(options: {
  previous?: string | undefined;
  next?: string | undefined;
  previousLabel: string;
  nextLabel: string;
  link?: { label: string; url: string } | undefined;
}): APIActionRowComponent<APIButtonComponent> {
  const step = (customId: string | undefined, label: string, which: string): APIButtonComponent =>
    customId
      ? { type: ComponentType.Button, style: ButtonStyle.Secondary, label, custom_id: customId }
      : {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label,
          custom_id: `${DISABLED_PREFIX}:${which}`,
          disabled: true,
        };
  const components: APIButtonComponent[] = [
    step(options.previous, options.previousLabel, "previous"),
    step(options.next, options.nextLabel, "next"),
  ];
  const link = options.link ? linkButton(options.link.label, options.link.url) : null;
  if (link) components.push(link);
  return { type: ComponentType.ActionRow, components };
}

/** The row under a file's lines (/blame, /contents): Previous / Next lines and Open on GitHub. */
export function fileLinesRow(
  buttons: NavigationButtons | undefined,
  url: string,
): APIActionRowComponent<APIButtonComponent> {
  return navigationRow({
    previous: buttons?.previous,
    next: buttons?.next,
    previousLabel: "◀ Previous lines",
    nextLabel: "Next lines ▶",
    link: { label: "Open on GitHub", url },
  });
}

/**
 * A Link button (URL made safe by `safeUrl`), or null when the URL is not http(s) or is longer than Discord accepts (512):
 * a long path can make a GitHub URL that long, and the answer is still worth sending without it.
 */
export function linkButton(label: string, url: string): APIButtonComponent | null {
  const safe = safeUrl(url);
  if (safe === null || safe.length > 512) return null;
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Link,
    label: truncate(sanitizeSingleLine(label), 80) || "Open",
    url: safe,
  };
}

/** A row holding just the given buttons; null when there are none. */
export function rowOf(
  buttons: ReadonlyArray<APIButtonComponent | null>,
): APIActionRowComponent<APIButtonComponent> | null {
  const components = buttons.filter((button): button is APIButtonComponent => button !== null);
  return components.length > 0 ? { type: ComponentType.ActionRow, components } : null;
}

// A lone surrogate cannot be percent-encoded (encodeURIComponent throws); it becomes U+FFFD.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// What may stay as it is after the host: unreserved characters, the delimiters a GitHub URL needs,
// and "%" of existing escapes. Everything else is percent-encoded, notably `()[]<>*_~|\`@'"`, which
// could end a masked link or read as markup or a mention, and spaces, controls and non-ASCII.
const URL_UNSAFE = /[^A-Za-z0-9\-._:/?#!$&+,;=%]/gu;

/**
 * An http(s) URL made safe to send anywhere in a message (a masked link, an embed's `url`, a Link
 * button): lowercase scheme, a plain host (no user info), and every character after the host that
 * could break markdown, ping, or be refused by Discord percent-encoded. Null when the URL is not
 * http(s) with a host.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (typeof url !== "string") return null;
  const match = /^(https?):\/\/([A-Za-z0-9.-]+(?::\d{1,5})?)([/?#][\s\S]*)?$/i.exec(url);
  if (!match) return null;
  const rest = (match[3] ?? "")
    .replace(LONE_SURROGATE, "\ufffd")
    .replace(URL_UNSAFE, (c) =>
      encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`),
    );
  return `${match[1]!.toLowerCase()}://${match[2]}${rest}`;
}

/** The URL for an embed's `url`: safe (see `safeUrl`) and of a sane length; undefined otherwise. */
export function embedUrl(url: string | null | undefined): string | undefined {
  const safe = safeUrl(url);
  return safe !== null && safe.length <= 2048 ? safe : undefined;
}

/**
 * `[text](url)` with `text` already escaped; the plain text when the URL cannot be linked. Empty
 * text would leave an invisible link, so it reads "(link)".
 */
export function maskedLink(escapedText: string, url: string | null | undefined): string {
  const safe = safeUrl(url);
  if (!safe) return escapedText;
  return `[${escapedText.trim() === "" ? "(link)" : escapedText}](${safe})`;
}

/** A path percent-encoded segment by segment, for a GitHub web URL. */
export function encodePath(path: string): string {
  return path
    .replace(LONE_SURROGATE, "\ufffd")
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join("/");
}

/** The web URL of a file or folder at a commit: `<repo>/blob/<oid>/<path>` or `/tree/...`. */
export function objectUrl(repositoryUrl: string, kind: "blob" | "tree", oid: string, path: string): string {
  const base = repositoryUrl.replace(/\/+$/, "");
  const encoded = encodePath(path);
  return `${base}/${kind}/${encodePath(oid)}${encoded ? `/${encoded}` : ""}`;
}

/** `<t:UNIX:R>` (or another style) for an ISO date; null when the date cannot be read. */
export function discordTimestamp(
  iso: string | null | undefined,
  style: "R" | "f" | "F" | "d" = "R",
): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

const COUNT_FORMAT = new Intl.NumberFormat("en-US");

/** 1234 -> "1,234". */
export function formatCount(value: number): string {
  // Whole numbers, nearly every count, are grouped here: Intl's format was a visible share of a
  // cached answer's CPU (bench/load/httpCpu.ts profile). Same text as en-US Intl (-0 reads 0).
  if (Number.isSafeInteger(value)) return value.toString().replace(/\B(?=(\d{3})+$)/g, ",");
  return Number.isFinite(value) ? COUNT_FORMAT.format(value) : "?";
}

/** A size in B, KiB, MiB or GiB with one decimal above bytes: "812 B", "12.3 KiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "unknown size";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** An empty message, to build on. */
export function emptyMessage(): FormattedMessage {
  return { embeds: [], components: [], files: [], allowedMentions: { parse: [] } };
}
