// Over 300 lines: one automatic preview's whole life (a message created, edited, deleted; Dismiss) shares its record, its rate claims and its token rules; split, each step would pass all of them around.
import {
  MessageFlags,
  MessageType,
  Routes,
  type APIEmbed,
  type APIMessage,
  type GatewayMessageDeleteDispatchData,
  type GatewayMessageUpdateDispatchData,
} from "discord-api-types/v10";
import type { REST } from "discord.js";
import { z } from "zod";
import {
  PREVIEW_RENDERERS,
  previewTargetsOf,
  type PreviewTarget,
  type RenderedPreview,
} from "../answers/linkPreviewAnswers.js";
import type { Asker } from "../answers/scout.js";
import { formatPreviewReply, PREVIEW_MAX_LINKS } from "../format/linkPreview.js";
import type { RepoRef } from "../github/types.js";
import { linkHostsOf } from "../input/messageLinks.js";
import { parseRepoArgument } from "../input/repoArgument.js";
import type { Logger } from "../logger.js";
import { toOutgoing } from "./core/messagePayload.js";
import type { Services } from "./services.js";
import { withFields } from "../withFields.js";

/** The same link is not previewed again in the same channel within this (SPEC section 7). */
export const REPEAT_WINDOW_MS = 5 * 60_000;
/** At most one preview reply per channel within this (SPEC section 7). */
export const CHANNEL_GAP_MS = 2_000;
/** How long a preview follows the edits and the delete of its message. */
const FOLLOW_MS = 24 * 60 * 60_000;
/**
 * Messages being previewed at once, at most: past it a message is skipped (and logged), so a flood
 * of links never queues work or memory without bound.
 */
const MAX_IN_FLIGHT = 64;

/** Text that may hold a link a preview answers (a URL, or a `#123` reference): others cost nothing. */
const MAY_HOLD_LINK = /https?:\/\/|#\d/;

/** A message as a MESSAGE_CREATE or a full MESSAGE_UPDATE carries it (the fields read here). */
type GatewayMessage = Pick<APIMessage, "id" | "channel_id" | "content" | "author" | "type"> &
  Partial<Pick<APIMessage, "flags" | "webhook_id">> & { guild_id?: string };

/**
 * Which preview answers a message, shared by every process on the same stores: its id and channel,
 * the `linkKey`s of the links it shows (in order), and `gone` once its Dismiss was pressed or a
 * moderator deleted it (an edit does not bring it back).
 */
const previewRecordSchema = z.object({
  previewId: z.string(),
  channelId: z.string(),
  keys: z.array(z.string()),
  gone: z.boolean().optional(),
});
type PreviewRecord = z.infer<typeof previewRecordSchema>;

/** What automatic previews need beside the services: the bot's REST client. */
export interface LinkPreviewOptions {
  services: Services;
  rest: Pick<REST, "post" | "patch" | "delete">;
  logger: Logger;
}

/** The gateway's message events, answered with automatic previews (SPEC section 7). */
export interface LinkPreviews {
  messageCreated(message: GatewayMessage): void;
  messageUpdated(message: GatewayMessageUpdateDispatchData): void;
  messageDeleted(message: GatewayMessageDeleteDispatchData): void;
  /** Resolves once no message is being previewed (a stop, tests). */
  idle(): Promise<void>;
}

/** A person's message in a server: not a bot's, not a webhook's, not a system message. */
function byPerson(message: Partial<GatewayMessage>): boolean {
  if (message.guild_id === undefined || message.author === undefined) return false;
  if (message.author.bot === true || message.webhook_id !== undefined) return false;
  return (
    message.type === undefined || message.type === MessageType.Default || message.type === MessageType.Reply
  );
}

function suppressed(message: Partial<GatewayMessage>): boolean {
  return ((message.flags ?? 0) & MessageFlags.SuppressEmbeds) !== 0;
}

/** Discord's code for a message that is gone (10008 Unknown Message). */
function unknownMessage(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 10008;
}

/**
 * Creates the automatic previews of one process: a person's message holding issue, pull request,
 * commit or file-lines links, in a server whose admins turned them on, gets ONE reply (no ping)
 * previewing up to 3 of them, which follows the message's edits and its delete. Reads use the
 * server's token, else the default one, never the author's own sign-in; a private repository is
 * previewed only where private answers may be posted in the channels, else skipped without a trace.
 * The repeat and rate rules are claims on the shared stores, so several processes keep them together.
 */
export function createLinkPreviews(options: LinkPreviewOptions): LinkPreviews {
  const { services, rest, logger } = options;
  const { claims, replies } = services.previews;
  const webHosts = linkHostsOf(services.config.github.webUrl);
  /** The work on each message, chained so its create, edits and delete happen in order. */
  const chains = new Map<string, Promise<void>>();

  function run(messageId: string, what: string, task: () => Promise<void>): void {
    if (chains.size >= MAX_IN_FLIGHT && !chains.has(messageId)) {
      logger.warn({ messageId, inFlight: chains.size }, `link previews busy: message ${what} skipped`);
      return;
    }
    const next: Promise<void> = (chains.get(messageId) ?? Promise.resolve())
      .then(task)
      .catch((error: unknown) => logger.warn({ err: error, messageId }, `link preview: ${what} failed`))
      .finally(() => {
        if (chains.get(messageId) === next) chains.delete(messageId);
      });
    chains.set(messageId, next);
  }

  const recordKey = (messageId: string) => `message:${messageId}`;
  async function readRecord(messageId: string): Promise<PreviewRecord | undefined> {
    const value = await replies.get(recordKey(messageId)).catch(() => undefined);
    // A record another version wrote, or none: no preview to follow.
    const parsed = previewRecordSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * The embeds of up to 3 targets: a link already shown by this preview (`known`) is kept, a new
   * one only if no preview showed it in the channel within 5 minutes. A link that cannot be read
   * (not found, rate limited, the fair share used up), or that is private where private answers stay
   * with the asker, is left out without a word: the channel sees nothing of it.
   */
  async function render(
    targets: readonly PreviewTarget[],
    where: { guildId: string; channelId: string },
    known: readonly string[],
  ): Promise<{ embeds: APIEmbed[]; keys: string[] }> {
    const chosen: PreviewTarget[] = [];
    for (const target of targets) {
      if (chosen.length >= PREVIEW_MAX_LINKS) break;
      if (!known.includes(target.key)) {
        const fresh = await claims
          .claim(`preview-link:${where.channelId}:${target.key}`, REPEAT_WINDOW_MS)
          .catch(() => true);
        if (!fresh) continue;
      }
      chosen.push(target);
    }
    // The server's reads, not the author's: never their sign-in, and the default token's fair share
    // is spent by the server (a person's own share stays for the commands they run).
    const asker: Asker = { guildId: where.guildId, userId: `previews:${where.guildId}`, ownSignIn: false };
    let privateAllowed: Promise<boolean> | undefined;
    const rendered = await Promise.all(
      chosen.map(async (target): Promise<RenderedPreview | null> => {
        const renderer = PREVIEW_RENDERERS[target.link.kind];
        if (!renderer) return null;
        try {
          const preview = await renderer(target.link, asker, services.scout);
          if (preview.privacy) {
            privateAllowed ??= services.settings.getPrivateAnswersInChannel(where.guildId);
            if (!(await privateAllowed)) return null;
          }
          return preview;
        } catch (error) {
          logger.debug({ err: error, link: target.key }, "link preview: a link has no preview");
          return null;
        }
      }),
    );
    const embeds: APIEmbed[] = [];
    const keys: string[] = [];
    rendered.forEach((preview, index) => {
      if (!preview) return;
      embeds.push(preview.embed);
      keys.push(chosen[index]!.key);
    });
    return { embeds, keys };
  }

  /** The links of a message to preview, a bare `#123` read with the server's default repository. */
  async function targetsOf(guildId: string, content: string): Promise<PreviewTarget[]> {
    if (!MAY_HOLD_LINK.test(content)) return [];
    const named = await services.settings.getDefaultRepo(guildId);
    let defaultRepo: RepoRef | undefined;
    try {
      defaultRepo = named ? parseRepoArgument(named, webHosts).repo : undefined;
    } catch {
      defaultRepo = undefined;
    }
    return previewTargetsOf(content, { webHosts, defaultRepo });
  }

  async function previewNew(message: GatewayMessage): Promise<void> {
    const guildId = message.guild_id!;
    const channelId = message.channel_id;
    // Read for every message with a link (remembered for a few seconds), so it comes first.
    if (!(await services.settings.getLinkPreviews(guildId))) return;
    const targets = await targetsOf(guildId, message.content);
    if (targets.length === 0) return;
    const gap = `preview-channel:${channelId}`;
    if (!(await claims.claim(gap, CHANNEL_GAP_MS).catch(() => true))) {
      logger.debug({ channelId, messageId: message.id }, "link preview: the channel had one within 2 s");
      return;
    }
    const { embeds, keys } = await render(targets, { guildId, channelId }, []);
    if (embeds.length === 0) {
      await claims.release(gap);
      return;
    }
    const { body } = toOutgoing(formatPreviewReply(embeds, message.author.id));
    const made = (await rest.post(Routes.channelMessages(channelId), {
      body: withFields(body, {
        // The author is not pinged; a message deleted meanwhile gets no orphan preview.
        allowed_mentions: { parse: [], replied_user: false },
        message_reference: { message_id: message.id, fail_if_not_exists: true },
      }),
    })) as APIMessage;
    const record: PreviewRecord = { previewId: made.id, channelId, keys };
    await replies.set(recordKey(message.id), record, FOLLOW_MS).catch((error: unknown) => {
      logger.warn({ err: error }, "link preview: could not remember the preview; it will not follow edits");
    });
  }

  async function removePreview(messageId: string, record: PreviewRecord): Promise<void> {
    try {
      await rest.delete(Routes.channelMessage(record.channelId, record.previewId));
    } catch (error) {
      if (!unknownMessage(error)) throw error;
    }
    await replies.delete(recordKey(messageId)).catch(() => false);
  }

  async function followEdit(message: GatewayMessageUpdateDispatchData): Promise<void> {
    const hidden = suppressed(message as Partial<GatewayMessage>);
    // An update without text is an embed Discord resolved later: nothing the author changed.
    if (typeof message.content !== "string" && !hidden) return;
    // Servers without previews (most of them) cost no read of the shared store on every edit.
    if (!(await services.settings.getLinkPreviews(message.guild_id!))) return;
    const record = await readRecord(message.id);
    if (!record) {
      if (!hidden && byPerson(message as Partial<GatewayMessage>))
        await previewNew(message as GatewayMessage);
      return;
    }
    if (record.gone) return;
    const targets = hidden ? [] : await targetsOf(message.guild_id!, message.content ?? "");
    if (targets.length === 0) {
      await removePreview(message.id, record);
      return;
    }
    const wanted = targets.slice(0, PREVIEW_MAX_LINKS).map((target) => target.key);
    if (wanted.length === record.keys.length && wanted.every((key, index) => key === record.keys[index]))
      return;
    const authorId = message.author?.id ?? "";
    const { embeds, keys } = await render(
      targets,
      { guildId: message.guild_id!, channelId: message.channel_id },
      record.keys,
    );
    if (embeds.length === 0) {
      await removePreview(message.id, record);
      return;
    }
    try {
      await rest.patch(Routes.channelMessage(record.channelId, record.previewId), {
        body: toOutgoing(formatPreviewReply(embeds, authorId)).body,
      });
      await replies.set(recordKey(message.id), withFields(record, { keys }), FOLLOW_MS);
    } catch (error) {
      if (!unknownMessage(error)) throw error;
      // Dismissed or deleted by a moderator: an edit does not bring it back.
      await replies.set(recordKey(message.id), withFields(record, { gone: true }), FOLLOW_MS);
    }
  }

  return {
    messageCreated(message) {
      if (!byPerson(message) || suppressed(message) || !MAY_HOLD_LINK.test(message.content)) return;
      run(message.id, "create", () => previewNew(message));
    },
    messageUpdated(message) {
      if (message.guild_id === undefined) return;
      if (message.author && (message.author.bot === true || message.webhook_id !== undefined)) return;
      run(message.id, "edit", () => followEdit(message));
    },
    messageDeleted(message) {
      if (message.guild_id === undefined) return;
      run(message.id, "delete", async () => {
        if (!(await services.settings.getLinkPreviews(message.guild_id!))) return;
        const record = await readRecord(message.id);
        if (record && !record.gone) await removePreview(message.id, record);
      });
    },
    async idle() {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
  };
}
