import { ChannelType, RESTJSONErrorCodes } from "discord-api-types/v10";
import { BOT_PERMISSIONS } from "../permissions.js";
import { threadUnavailableNote } from "../../format/delivery.js";
import type { FormattedMessage } from "../../format/message.js";
import { toOutgoing } from "./messagePayload.js";
import type { Responder } from "./responder.js";

/** Where an answer goes: a new thread, or in place (with the reason when a thread was wanted). */
export type Placement = { mode: "thread" } | { mode: "inPlace"; note?: string };

const THREAD_TYPES = new Set<number>([
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.AnnouncementThread,
]);
const THREAD_PARENTS = new Set<number>([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/**
 * Decides where an answer goes (SPEC section 3). A thread is wanted when asked for, or when the
 * server setting is on and the option was not given. Inside a thread the answer stays in place;
 * where a thread cannot be made (a DM, another kind of channel, a missing permission), the answer
 * stays in place and says why.
 */
export function decidePlacement(input: {
  wantsThread: boolean;
  inGuild: boolean;
  /** Only the asker's own install of the app serves the interaction: the bot is not in the place. */
  userInstallOnly?: boolean;
  /** The channel's type, when known. */
  channelType: number | null;
  /** What the bot may do in the channel (`app_permissions`). */
  appPermissions: bigint;
}): Placement {
  if (!input.wantsThread) return { mode: "inPlace" };
  if (input.channelType !== null && THREAD_TYPES.has(input.channelType)) return { mode: "inPlace" };
  if (input.userInstallOnly) {
    return { mode: "inPlace", note: threadUnavailableNote({ kind: "userInstall" }) };
  }
  if (!input.inGuild) {
    return {
      mode: "inPlace",
      note: threadUnavailableNote({ kind: "directMessage" }),
    };
  }
  if (input.channelType === null || !THREAD_PARENTS.has(input.channelType)) {
    return {
      mode: "inPlace",
      note: threadUnavailableNote({ kind: "notTextChannel" }),
    };
  }
  // The same entries `npm run invite` asks for (../permissions.ts).
  const missing = [BOT_PERMISSIONS.createPublicThreads, BOT_PERMISSIONS.sendMessagesInThreads]
    .filter((permission) => (input.appPermissions & permission.bit) === 0n)
    .map((permission) => permission.name);
  if (missing.length > 0) {
    return {
      mode: "inPlace",
      note: threadUnavailableNote({ kind: "missingPermissions", missing }),
    };
  }
  return { mode: "thread" };
}

/**
 * Starts a public thread from a message and posts the answer in it, over the channel routes (the
 * bot's own auth), so it works whatever the transport.
 * @returns the thread's id (equal to the starter message's id).
 */
export async function answerInThread(
  responder: Pick<Responder, "startThread" | "sendToChannel">,
  input: { channelId: string; messageId: string; name: string; message: FormattedMessage },
): Promise<string> {
  const thread = await responder.startThread(input.channelId, input.messageId, input.name);
  await responder.sendToChannel(thread.id, toOutgoing(input.message));
  return thread.id;
}

/** A short reason a thread could not be made, from Discord's error, for the in-place note. */
export function threadFailureNote(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : null;
  const permission =
    code === RESTJSONErrorCodes.MissingPermissions || code === RESTJSONErrorCodes.MissingAccess;
  return threadUnavailableNote({ kind: "refused", permission });
}
