import { escapeLabel, inlineCode } from "./escape.js";
import { fitMessage } from "./limits.js";
import { COLORS, discordTimestamp, emptyMessage, type FormattedMessage } from "./message.js";
import type { TokenOriginName } from "./whoami.js";

/** What `/settings show` prints: every setting of the server and the token in effect for the asker. */
export interface SettingsView {
  threads: boolean;
  privateAnswersInChannel: boolean;
  /** The server's default repository (`owner/name`), when set. */
  defaultRepo?: string | undefined;
  /** ISO; undefined when no admin ever changed a setting. */
  updatedAt: string | undefined;
  /** Where the asker's token in effect comes from; undefined when there is none. */
  origin: TokenOriginName | undefined;
  /** The login of the server's token, when it has one (never the token). */
  serverTokenLogin: string | undefined;
  /** `GITHUB_TOKEN_ALLOW_PRIVATE`: the default token may read private repositories. */
  defaultTokenAllowPrivate: boolean;
  /** Automatic link previews are on in this server (`/settings link-previews`). */
  linkPreviews: boolean;
  /** Whether this bot receives messages at all, which previews need (see {@link PreviewReach}). */
  previewReach: PreviewReach;
}

/**
 * Whether the bot hears messages (SPEC section 7): over the gateway with `DISCORD_MESSAGE_CONTENT`
 * (`messages`), over the gateway without it (`noIntent`), or over HTTP, which carries none (`http`).
 */
export type PreviewReach = "messages" | "noIntent" | "http";

/** Why a server's setting cannot take effect, or nothing when it can. */
function reachSentence(reach: PreviewReach): string | undefined {
  switch (reach) {
    case "http":
      return "This bot receives interactions over HTTP, which carries no messages, so it cannot preview links automatically; its operator would have to run it over the gateway with `DISCORD_MESSAGE_CONTENT=true`. The message menus (a message's Apps menu) work anywhere.";
    case "noIntent":
      return "This bot does not read messages: its operator has not set `DISCORD_MESSAGE_CONTENT=true` (with the Message Content intent enabled for the app), so no preview appears until then. The message menus (a message's Apps menu) work anywhere.";
    case "messages":
      return undefined;
  }
}

/**
 * The confirmation of `/settings link-previews`: what now happens to messages with GitHub links,
 * and, when the bot cannot read messages (HTTP mode, or no Message Content intent), why nothing
 * will appear.
 */
export function formatLinkPreviewsChanged(enabled: boolean, reach: PreviewReach): FormattedMessage {
  const lines = [
    enabled
      ? "Automatic link previews are now **on** here: a message with links to GitHub issues, pull requests, commits or file lines gets one compact reply (up to 3 links), which its author or a moderator can dismiss. Links in `<…>` or in code are left alone."
      : "Automatic link previews are now **off** here.",
  ];
  const why = enabled ? reachSentence(reach) : undefined;
  if (why) lines.push(`⚠️ ${why}`);
  const message = emptyMessage();
  message.embeds.push({
    title: "Link previews",
    color: COLORS.notice,
    description: lines.join("\n"),
  });
  return fitMessage(message);
}

function tokenLine(view: SettingsView): string {
  switch (view.origin) {
    case "user":
      return "`you`: your own GitHub sign-in (`/login`).";
    case "server":
      return `\`server\`: this server's token${view.serverTokenLogin ? `, as **${escapeLabel(view.serverTokenLogin, 100)}**` : ""} (\`/token status\`).`;
    case "default":
      return view.defaultTokenAllowPrivate
        ? "`default`: the bot's shared token; its operator lets it read private repositories."
        : "`default`: the bot's shared token, which reads public repositories only. Sign in with `/login`, or an admin can `/token set`, to read private ones.";
    default:
      return "none: this server has no GitHub token and the bot has no default one. An admin can run `/token set`.";
  }
}

/**
 * The answer of `/settings show`: whether answers go into threads, where answers from private
 * repositories are shown, the token in effect for the asker (where it comes from, never the token)
 * and when a setting was last changed. Each line names the command that changes it.
 */
export function formatSettings(view: SettingsView): FormattedMessage {
  const changed = discordTimestamp(view.updatedAt ?? null);
  const lines = [
    view.threads
      ? "**Threads**: `on`: answers go into a new thread, unless a command says `thread:false`. Change with `/settings threads`."
      : "**Threads**: `off`: answers come in place, unless a command says `thread:true`. Change with `/settings threads`.",
    view.privateAnswersInChannel
      ? "**Private answers**: `in-channel`: answers from private or internal repositories are posted in the channel, marked as private. Change with `/settings private-answers`."
      : "**Private answers**: `asker only`: answers from private or internal repositories are shown only to the person who asked. Change with `/settings private-answers`.",
    `**Link previews**: ${view.linkPreviews ? "`on`: messages with GitHub links get a compact preview." : "`off`."} Change with \`/settings link-previews\`.${view.linkPreviews && reachSentence(view.previewReach) ? ` ⚠️ ${reachSentence(view.previewReach)}` : ""}`,
    view.defaultRepo
      ? `**Default repository**: ${inlineCode(view.defaultRepo)}: a bare \`#123\` in a message refers to it (\`Preview links\`). Change with \`/settings repo\`.`
      : "**Default repository**: none: a bare `#123` in a message is not a link. Set one with `/settings repo`.",
    `**Token in effect for you**: ${tokenLine(view)}`,
    changed ? `-# Last changed ${changed}.` : "-# No setting was ever changed here: these are the defaults.",
  ];
  const message = emptyMessage();
  message.embeds.push({
    title: "Settings of this server",
    color: COLORS.notice,
    description: lines.join("\n"),
  });
  return fitMessage(message);
}
