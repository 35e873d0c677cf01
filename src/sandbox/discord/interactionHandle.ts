import {
  InteractionResponseType,
  type APIApplicationCommandOptionChoice,
  type APIInteraction,
  type APIModalInteractionResponseCallbackData,
} from "discord-api-types/v10";
import { cloneJson } from "./json.js";
import type {
  CallbackRecord,
  DiscordState,
  InteractionDelivery,
  InteractionKind,
  InteractionState,
  RestRequestRecord,
} from "./state.js";
import { messageView, threadView, type MessageView, type ThreadView } from "./views.js";

/** Everything the bot did with one interaction, as a test reads it. */
export interface InteractionRecord {
  id: string;
  kind: InteractionKind;
  /** The payload dispatched as INTERACTION_CREATE. */
  payload: APIInteraction;
  /** Accepted callbacks (at most one: later ones are refused with 40060). */
  callbacks: CallbackRecord[];
  /** The bot has given its final visible answer (see `waitForAnswer`). */
  answered: boolean;
  /** The first response was a deferral (type 5 or 6). */
  deferred: boolean;
  /** The response (or deferral) is ephemeral. */
  ephemeral: boolean;
  /** The `@original` message as it is now (null: none, e.g. a modal or autocomplete answer). */
  original: MessageView | null;
  originalDeleted: boolean;
  /**
   * Messages sent through the follow-up route. The first one after a deferral takes the
   * placeholder's place: it is then also `original` (same id).
   */
  followups: MessageView[];
  /** The modal shown (callback type 9). */
  modal: APIModalInteractionResponseCallbackData | null;
  /** Autocomplete choices (callback type 8). */
  choices: APIApplicationCommandOptionChoice[] | null;
  /** The thread started from the original or a follow-up, if any. */
  thread: ThreadView | null;
  /** Messages posted in that thread. */
  threadMessages: MessageView[];
  /** The bot's requests on this interaction that Discord refused (status >= 400). */
  errors: RestRequestRecord[];
  /** How it reached the bot: the gateway session and shard, or the endpoint and what it answered. */
  delivery: InteractionDelivery | null;
}

/** Options of the waits; times in milliseconds. */
export interface WaitOptions {
  /** Give up after this long (default 5,000). */
  timeoutMs?: number;
}

/** The first response, without a snapshot of messages (cheap enough for load runs). */
export interface FirstResponse {
  type: InteractionResponseType;
  /** When the stand-in accepted it (ms since the epoch). */
  at: number;
  /** Time from the interaction's creation to its first response. */
  afterMs: number;
  via: CallbackRecord["via"];
}

/** A dispatched interaction, to read and await what the bot does with it. */
export interface InteractionHandle {
  readonly id: string;
  readonly token: string;
  readonly kind: InteractionKind;
  readonly payload: APIInteraction;
  /** A snapshot of what the bot did so far. */
  record(): InteractionRecord;
  /**
   * Resolves once the bot has given its final visible answer: a first response arrived and, when
   * it was a deferral, the `@original` was then edited, deleted or replaced by a follow-up. With
   * `settleMs`, also waits until the interaction saw no activity (edits, follow-ups, thread
   * messages) for that long.
   */
  waitForAnswer(options?: WaitOptions & { settleMs?: number }): Promise<InteractionRecord>;
  /**
   * Resolves, with the time it came (ms since the epoch), once the bot has given its final visible
   * answer (as `waitForAnswer`), building no snapshot: for load generators, which read the record
   * after their run rather than while the bot is still answering.
   */
  waitForAnswerTime(options?: WaitOptions): Promise<number>;
  /** Resolves once a first response arrived and nothing happened on the interaction for `quietMs` (default 200). */
  waitForSettled(options?: WaitOptions & { quietMs?: number }): Promise<InteractionRecord>;
  /**
   * Resolves with the first response as soon as it is accepted; rejects once the response
   * deadline passed without one (plus `timeoutMs` of grace, default 1,000). Builds no snapshot:
   * for load generators.
   */
  waitForResponse(options?: WaitOptions): Promise<FirstResponse>;
  /** Resolves once `predicate` holds for the record (checked on every activity). */
  waitFor(
    predicate: (record: InteractionRecord) => boolean,
    options?: WaitOptions,
  ): Promise<InteractionRecord>;
}

/** The rule of a final visible answer (see `InteractionHandle.waitForAnswer`). */
export function isAnswered(state: DiscordState, interaction: InteractionState): boolean {
  const response = interaction.response;
  if (!response) return false;
  const original = interaction.originalMessageId
    ? state.messages.get(interaction.originalMessageId)
    : undefined;
  switch (response.type) {
    case InteractionResponseType.DeferredChannelMessageWithSource:
      return (
        interaction.followupIds.length > 0 ||
        (original !== undefined && (!original.loading || original.deleted))
      );
    case InteractionResponseType.DeferredMessageUpdate:
      return (
        interaction.followupIds.length > 0 || interaction.originalEdits > 0 || original?.deleted === true
      );
    default:
      return true;
  }
}

/** A snapshot of an interaction's record. */
export function interactionRecord(state: DiscordState, interaction: InteractionState): InteractionRecord {
  const original = interaction.originalMessageId
    ? state.messages.get(interaction.originalMessageId)
    : undefined;
  const followups = interaction.followupIds
    .map((id) => state.messages.get(id))
    .filter((message) => message !== undefined)
    .map((message) => messageView(state, message));
  const ownIds = [interaction.originalMessageId, ...interaction.followupIds].filter(
    (id): id is string => id !== null,
  );
  const threadId = ownIds.find((id) => state.threads.get(id)?.starterMessageId === id);
  const thread = threadId ? threadView(state, threadId) : null;
  const responseType = interaction.response?.type;
  const deferred =
    responseType === InteractionResponseType.DeferredChannelMessageWithSource ||
    responseType === InteractionResponseType.DeferredMessageUpdate;
  return {
    id: interaction.id,
    kind: interaction.kind,
    // Shared, not copied (as `handle.payload`): copying every payload on every wait was the
    // costliest part of a load run; nothing in the stand-in changes a payload once sent.
    payload: interaction.payload,
    callbacks: cloneJson(interaction.callbacks),
    answered: isAnswered(state, interaction),
    deferred,
    ephemeral: original?.ephemeral ?? false,
    original: original && !original.deleted ? messageView(state, original) : null,
    originalDeleted: original?.deleted ?? false,
    followups,
    modal: interaction.modal ? cloneJson(interaction.modal) : null,
    choices: interaction.choices ? cloneJson(interaction.choices) : null,
    thread,
    threadMessages: thread?.messages ?? [],
    errors: [...interaction.errors],
    delivery: interaction.delivery ? { ...interaction.delivery } : null,
  };
}

/** A one-line account of a record, for timeout messages. */
function describe(record: InteractionRecord): string {
  const parts = [
    `callbacks [${record.callbacks.map((callback) => callback.type).join(", ")}]`,
    `original ${record.original ? JSON.stringify(record.original.content.slice(0, 80)) : "none"}${record.original?.loading ? " (loading)" : ""}`,
    `followups ${record.followups.length}`,
    `thread ${record.thread ? record.thread.name : "none"}`,
    `errors [${record.errors.map((error) => `${error.method} ${error.route ?? error.path} ${error.status}`).join("; ")}]`,
    ...(record.delivery?.error ? [`delivery: ${record.delivery.error}`] : []),
  ];
  return parts.join(", ");
}

/** Creates the handle of an interaction the state holds. */
export function createInteractionHandle(
  state: DiscordState,
  interaction: InteractionState,
): InteractionHandle {
  const record = () => interactionRecord(state, interaction);

  const wait = <T>(
    label: string,
    ready: () => boolean,
    options: { timeoutMs?: number; quietMs?: number },
    result: () => T,
  ): Promise<T> =>
    new Promise((resolve, reject) => {
      const quietMs = options.quietMs ?? 0;
      let quietTimer: NodeJS.Timeout | null = null;
      const stop = () => {
        off();
        clearTimeout(timeout);
        if (quietTimer) clearTimeout(quietTimer);
      };
      const check = () => {
        if (quietTimer) clearTimeout(quietTimer);
        quietTimer = null;
        if (!ready()) return;
        if (quietMs <= 0) {
          stop();
          resolve(result());
          return;
        }
        quietTimer = setTimeout(() => {
          stop();
          resolve(result());
        }, quietMs);
      };
      const off = state.onInteractionActivity(interaction.id, check);
      const timeoutMs = options.timeoutMs ?? 5000;
      const timeout = setTimeout(() => {
        stop();
        reject(
          new Error(
            `interaction ${interaction.id} (${interaction.kind}): ${label} not reached within ${timeoutMs} ms; ${describe(record())}`,
          ),
        );
      }, timeoutMs);
      check();
    });

  return {
    id: interaction.id,
    token: interaction.token,
    kind: interaction.kind,
    payload: interaction.payload,
    record,
    waitForAnswer: (options = {}) =>
      wait(
        "a final answer",
        () => isAnswered(state, interaction),
        { timeoutMs: options.timeoutMs, quietMs: options.settleMs ?? 0 },
        record,
      ),
    waitForAnswerTime: (options = {}) =>
      wait(
        "a final answer",
        () => isAnswered(state, interaction),
        options,
        () => Date.now(),
      ),
    waitForSettled: (options = {}) =>
      wait(
        "a settled state",
        () => interaction.response !== null,
        { timeoutMs: options.timeoutMs, quietMs: options.quietMs ?? 200 },
        record,
      ),
    waitFor: (predicate, options = {}) =>
      wait("the awaited condition", () => predicate(record()), options, record),
    waitForResponse: (options = {}) =>
      new Promise((resolve, reject) => {
        const first = (): FirstResponse | null => {
          const callback = interaction.callbacks[0];
          return callback
            ? {
                type: callback.type,
                at: callback.at,
                afterMs: callback.at - interaction.dispatchedAt,
                via: callback.via,
              }
            : null;
        };
        const ready = first();
        if (ready) {
          resolve(ready);
          return;
        }
        const off = state.onInteractionActivity(interaction.id, () => {
          const response = first();
          if (!response) return;
          off();
          clearTimeout(timer);
          resolve(response);
        });
        const timer = setTimeout(
          () => {
            off();
            reject(
              new Error(
                `interaction ${interaction.id}: no first response before its deadline; ${describe(record())}`,
              ),
            );
          },
          Math.max(0, interaction.deadlineAt - Date.now()) + (options.timeoutMs ?? 1000),
        );
      }),
  };
}
