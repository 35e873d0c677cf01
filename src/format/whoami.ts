import type { APIEmbed } from "discord-api-types/v10";
import type { RateLimitSnapshot, Viewer } from "../github/types.js";
import { escapeLabel, sanitizeSingleLine } from "./escape.js";
import { fitMessage } from "./limits.js";
import {
  COLORS,
  discordTimestamp,
  emptyMessage,
  footerText,
  formatCount,
  type FormattedMessage,
  type Freshness,
} from "./message.js";

/** Where the token in effect comes from (SPEC section 4). */
export type TokenOriginName = "user" | "server" | "default";

export interface WhoamiMeta {
  origin: TokenOriginName;
  now: Date;
  freshness?: Freshness;
}

/** What `/token status` knows of a server's token; never the token itself. */
export interface TokenStatus {
  login: string;
  /** Discord user id of the admin who set it. */
  setBy: string;
  /** ISO. */
  setAt: string;
  rateLimit: RateLimitSnapshot | null;
}

/**
 * "4,321 of 5,000 graphql points left, resets <t:…:R> (as of <t:…:R>)", or "unknown" before any
 * request has shown the figures. A reset time already past means the budget has refilled since.
 */
export function rateLimitText(rateLimit: RateLimitSnapshot | null, now: Date): string {
  if (!rateLimit || !Number.isFinite(rateLimit.remaining) || !Number.isFinite(rateLimit.limit)) {
    return "unknown (no request has reported it yet)";
  }
  const resource = sanitizeSingleLine(rateLimit.resource).replace(/[^a-z0-9_-]/gi, "");
  const left = `${formatCount(rateLimit.remaining)} of ${formatCount(rateLimit.limit)}${resource ? ` ${resource}` : ""} points left`;
  const resetMs = Date.parse(rateLimit.resetAt);
  const reset = discordTimestamp(rateLimit.resetAt);
  const seen = discordTimestamp(rateLimit.observedAt);
  const resetText =
    reset === null ? "" : resetMs <= now.getTime() ? `, full again since ${reset}` : `, resets ${reset}`;
  return `${left}${resetText}${seen ? ` (as of ${seen})` : ""}`;
}

/**
 * The answer of `/whoami`: the GitHub login of the token in effect (escaped), where that token
 * comes from (this server's, set by an admin, or the bot's default), and the rate-limit budget left.
 */
export function formatWhoami(viewer: Viewer, meta: WhoamiMeta): FormattedMessage {
  const origin =
    meta.origin === "user"
      ? "`you`: your own GitHub sign-in (`/login`)"
      : meta.origin === "server"
        ? "`server`: this server's token, set by an admin"
        : "`default`: the bot's default token";
  const description = [
    `Commands here use GitHub as **${escapeLabel(viewer.login, 100)}**.`,
    `Token: ${origin}.`,
    `Rate limit: ${rateLimitText(viewer.rateLimit, meta.now)}.`,
  ].join("\n");
  const embed: APIEmbed = { title: "Who am I on GitHub", color: COLORS.whoami, description };
  if (meta.freshness) embed.footer = { text: footerText(meta.freshness, meta.now) };
  const message = emptyMessage();
  message.embeds.push(embed);
  return fitMessage(message);
}

/**
 * The answer of `/token status`: whose account the server's token is, who set it and when, and
 * its rate-limit budget; or that the server has none. Never shows a token. `setBy` becomes a user
 * mention, which is safe: it is the bot's own record and `allowed_mentions` parses nothing.
 */
export function formatTokenStatus(
  status: TokenStatus | null,
  meta: { now: Date; lostAt?: string },
): FormattedMessage {
  const message = emptyMessage();
  if (status === null && meta.lostAt) {
    const when = discordTimestamp(meta.lostAt, "f");
    message.embeds.push({
      title: "Server token",
      color: COLORS.whoami,
      description:
        `⚠️ This server's GitHub token is missing: one was set${when ? ` on ${when}` : ""} and never cleared, but the bot's store no longer has it (its Redis may have restarted without persistence). ` +
        "Commands use the bot's default token meanwhile, if it has one. An admin can run `/token set` again.",
    });
    return fitMessage(message);
  }
  if (status === null) {
    message.embeds.push({
      title: "Server token",
      color: COLORS.whoami,
      description:
        "This server has no GitHub token of its own: commands use the bot's default token, if it has one. " +
        "An admin can set one with `/token set`.",
    });
    return fitMessage(message);
  }
  const setBy = /^\d{1,25}$/.test(status.setBy) ? `<@${status.setBy}>` : escapeLabel(status.setBy, 100);
  const setAt = discordTimestamp(status.setAt, "f");
  const setAgo = discordTimestamp(status.setAt, "R");
  message.embeds.push({
    title: "Server token",
    color: COLORS.whoami,
    description: [
      `This server's token authenticates as **${escapeLabel(status.login, 100)}**.`,
      `Set by ${setBy}${setAt ? ` on ${setAt} (${setAgo})` : ""}.`,
      `Rate limit: ${rateLimitText(status.rateLimit, meta.now)}.`,
    ].join("\n"),
  });
  return fitMessage(message);
}

/**
 * A short confirmation (settings changed, token set or cleared). The text is the bot's own
 * markdown: callers escape whatever part of it comes from elsewhere.
 */
export function formatNotice(text: string): FormattedMessage {
  const message = emptyMessage();
  message.embeds.push({ color: COLORS.notice, description: text.trim() || "Done." });
  return fitMessage(message);
}
