import { PermissionFlagsBits } from "discord-api-types/v10";

/** A permission the bot uses in a channel, and what for. */
export interface BotPermission {
  name: string;
  bit: bigint;
  why: string;
}

/**
 * Every permission RepoScout uses, in one list: `npm run invite` asks for exactly these, and the
 * bot checks the thread ones in each channel before starting a thread (./core/threads.ts). Answers
 * to an interaction need none (they go through the interaction's webhook); threads go through the
 * channel routes, which do.
 */
export const BOT_PERMISSIONS = {
  viewChannel: {
    name: "View Channel",
    bit: PermissionFlagsBits.ViewChannel,
    why: "see the channel a thread is started in",
  },
  sendMessages: { name: "Send Messages", bit: PermissionFlagsBits.SendMessages, why: "post in the channel" },
  createPublicThreads: {
    name: "Create Public Threads",
    bit: PermissionFlagsBits.CreatePublicThreads,
    why: "answer in a thread (`thread:true`, or the server's setting)",
  },
  sendMessagesInThreads: {
    name: "Send Messages in Threads",
    bit: PermissionFlagsBits.SendMessagesInThreads,
    why: "post the answer in the thread it started",
  },
  embedLinks: { name: "Embed Links", bit: PermissionFlagsBits.EmbedLinks, why: "answers are embeds" },
  attachFiles: {
    name: "Attach Files",
    bit: PermissionFlagsBits.AttachFiles,
    why: "a long file or blame goes along as an attachment (Discord refuses a file in a thread without it)",
  },
  readMessageHistory: {
    name: "Read Message History",
    bit: PermissionFlagsBits.ReadMessageHistory,
    why: "start a thread from the answer message",
  },
} as const satisfies Record<string, BotPermission>;

/** The permissions integer of the invite: every bit of {@link BOT_PERMISSIONS}. */
export function invitePermissions(): bigint {
  return Object.values(BOT_PERMISSIONS).reduce((bits, permission) => bits | permission.bit, 0n);
}

/** The server invite URL: the bot user and its commands, with exactly {@link invitePermissions}. */
export function serverInviteUrl(clientId: string): string {
  const query = new URLSearchParams({
    client_id: clientId,
    scope: "bot applications.commands",
    permissions: invitePermissions().toString(),
    integration_type: "0",
  });
  return `https://discord.com/oauth2/authorize?${query}`;
}

/** The user-install URL: RepoScout on a person's own account (commands only, no bot user). */
export function userInstallUrl(clientId: string): string {
  const query = new URLSearchParams({
    client_id: clientId,
    scope: "applications.commands",
    integration_type: "1",
  });
  return `https://discord.com/oauth2/authorize?${query}`;
}
