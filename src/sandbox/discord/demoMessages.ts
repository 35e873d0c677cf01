import type { APIUser } from "discord-api-types/v10";
import { createMessage, deleteMessage, editMessage } from "./messages.js";
import type { DiscordState, StoredMessage } from "./state.js";

/** Where the demo messages point and what #code-links holds. */
export interface DemoLinksOptions {
  /** The web host of the links (default `https://github.com`; a GitHub Enterprise Server's, or the local GitHub's). */
  webHost?: string;
  /**
   * The history of #code-links, oldest first, by name (replaces the default one; the names become
   * the keys of `demoMessages`).
   */
  messages?: Readonly<Record<string, string>>;
}

/**
 * The default history of #code-links: permalinks into the local GitHub's demo world (the
 * `demo/widgets` files and refs of `src/sandbox/github/demoConstants.ts`, written out here: the
 * stand-ins import nothing of each other), one case each.
 */
export function demoLinkMessages(webHost = "https://github.com"): Record<string, string> {
  const host = webHost.replace(/\/+$/, "");
  const widgets = `${host}/demo/widgets/blob`;
  return {
    oneLink: `The scheduler's main loop is here: ${widgets}/main/src/engine.ts#L10-L20`,
    singleLine: `This line looks off to me: ${widgets}/main/src/engine.ts#L42`,
    columnAnchor: `Exactly these characters: ${widgets}/main/src/engine.ts#L10C3-L20C5`,
    slashBranch: `The ratio helper on the feature branch: ${widgets}/feature/gears/src/gears.ts#L6-L8`,
    severalLinks:
      `Compare ${widgets}/main/README.md#L1-L3 with ${widgets}/develop/src/engine.ts#L30-L40 ` +
      `and ${host}/demo/gadgets/blob/main/README.md`,
    wholeFile: `The whole intro, no anchor: ${widgets}/main/docs/guide/intro.md`,
    tag: `As released in 1.0.0: ${widgets}/v1.0.0/README.md#L1`,
    privateRepo: `Members only: ${host}/demo/secret/blob/main/SECRET.md#L1-L3`,
    otherHost: "The mirror has it too: https://gitlab.com/demo/widgets/-/blob/main/src/engine.ts#L10-L20",
    noLink: "Has anyone tried the new scheduler yet?",
    issueLinks:
      `Is ${host}/demo/widgets/issues/1 fixed by ${host}/demo/widgets/pull/5? ` +
      "It was demo/widgets#2 that demo/widgets#3 closed.",
  };
}

/**
 * Posts a message as a person would in the client (not through the API): a message menu's target,
 * and what an automatic preview answers. `flags` are what the client sets (`SUPPRESS_EMBEDS`);
 * `webhookId` makes it a webhook's message (its author is then the webhook, a bot).
 */
export function postAsPerson(
  state: DiscordState,
  input: { channelId: string; author: APIUser; content: string; flags?: number; webhookId?: string },
): StoredMessage {
  return createMessage(state, {
    channelId: input.channelId,
    author: input.author,
    body: { content: input.content },
    uploads: [],
    via: "seed",
    ...(input.flags !== undefined ? { flags: input.flags } : {}),
    ...(input.webhookId !== undefined ? { webhookId: input.webhookId } : {}),
  });
}

/**
 * Edits a person's message as its author would in the client: new text and/or flags (removing
 * the embeds sets `SUPPRESS_EMBEDS`). Sends MESSAGE_UPDATE.
 * @throws when the message is gone.
 */
export function editAsPerson(
  state: DiscordState,
  message: StoredMessage,
  change: { content?: string; flags?: number },
): StoredMessage {
  if (message.deleted) throw new Error(`message ${message.id} was deleted`);
  const body: { content?: string; flags?: number } = {};
  if (change.content !== undefined) body.content = change.content;
  if (change.flags !== undefined) body.flags = change.flags;
  editMessage(state, message, body, [], "seed");
  return message;
}

/** Deletes a message as its author (or a moderator) would in the client. Sends MESSAGE_DELETE. */
export function deleteAsPerson(state: DiscordState, message: StoredMessage): void {
  if (!message.deleted) deleteMessage(state, message);
}

/**
 * Seeds the channels' histories with messages by the cast (not the bot), so that a message command
 * has something to be used on: #code-links in the main server, #lobby and #no-apps in
 * `elsewhere`, the group DM, and the member's DM with the bot.
 * @returns the message ids by name (`lobby`, `noApps`, `groupDm`, `dm` for the other places).
 */
export function seedDemoMessages(
  state: DiscordState,
  options: DemoLinksOptions = {},
): Record<string, string> {
  const host = (options.webHost ?? "https://github.com").replace(/\/+$/, "");
  const cast = state.world.users;
  const places = state.world.channels;
  const ids: Record<string, string> = {};
  const post = (name: string, channelId: string, author: APIUser, content: string) => {
    ids[name] = postAsPerson(state, { channelId, author, content }).id;
  };
  const authors = [cast.owner, cast.admin, cast.member];
  Object.entries(options.messages ?? demoLinkMessages(host)).forEach(([name, content], index) =>
    post(name, places.codeLinks.id, authors[index % authors.length]!, content),
  );
  const engine = `${host}/demo/widgets/blob/main/src/engine.ts`;
  post("lobby", places.lobby.id, cast.stranger, `Look what I found: ${engine}#L1-L12`);
  post("noApps", places.noApps.id, cast.admin, `Quiet channel, same link: ${engine}#L1-L12`);
  post(
    "groupDm",
    places.groupDm.id,
    cast.admin,
    `For the three of us: ${host}/demo/gadgets/blob/main/src/index.ts#L1`,
  );
  post("dm", places.dm.id, cast.member, `Remind me about ${engine}#L100-L110`);
  return ids;
}
