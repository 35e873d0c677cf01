import { LRUCache } from "lru-cache";
import type { FormattedMessage } from "../format/message.js";

/**
 * Rendered answers kept in process, so a repeat of a cached answer costs what sending it costs
 * (issue 23): formatting (escaping, fitting, the attachment) was a quarter of the bot's CPU on
 * cached answers, and the `/owners` chart's PNG about 80 ms each time.
 *
 * A message is kept under the identity of the answer it shows (the answer objects it is made of:
 * the answer cache hands every repeat the same read-only object while it holds it) and a `variant`: every
 * other thing that shapes the message (the lines shown, the ref, the buttons, the footer's
 * freshness text, which changes with the minute). Two answers never share a message, whatever
 * they hold; an answer that leaves the cache takes its messages' identity with it.
 */
export interface RenderedAnswers {
  /**
   * The message `render` gives for `answer` seen as `variant`: rendered on the first call, the same
   * message after. The message is shared: callers must not change it (no one does: the core copies).
   */
  message(
    answer: readonly object[],
    variant: readonly unknown[],
    render: () => FormattedMessage,
  ): FormattedMessage;
  /** The PNG `render` makes of an SVG document: made once per distinct document while kept. */
  png(svg: string, render: (svg: string) => Buffer): Buffer;
  /** How many messages and PNGs were rendered, and how many were served as kept (for the bench). */
  counts(): { rendered: number; reused: number };
}

/** Characters an embed, its buttons and the message around them may weigh, as UTF-16 (bytes: x2). */
const MESSAGE_OVERHEAD_BYTES = 2 * 6_000 + 4_096;

function messageBytes(message: FormattedMessage): number {
  let bytes = MESSAGE_OVERHEAD_BYTES * Math.max(1, message.embeds.length);
  for (const file of message.files) bytes += file.data.length;
  return bytes + 2 * (message.content?.length ?? 0);
}

/**
 * Creates the in-process store of rendered answers, bounded in bytes (least recently used leave
 * first): by default 32 MB of messages and 8 MB of PNGs.
 */
export function createRenderedAnswers(
  options: { messageBytes?: number; pngBytes?: number } = {},
): RenderedAnswers {
  const maxMessageBytes = options.messageBytes ?? 32 * 1024 * 1024;
  const maxPngBytes = options.pngBytes ?? 8 * 1024 * 1024;
  // An answer's identity: a number per answer object, never reused, held weakly (the cache decides
  // how long an answer lives, not this).
  const identities = new WeakMap<object, number>();
  let nextIdentity = 1;
  const identityOf = (part: object): number => {
    let identity = identities.get(part);
    if (identity === undefined) {
      identity = nextIdentity++;
      identities.set(part, identity);
    }
    return identity;
  };
  const messages = new LRUCache<string, FormattedMessage>({
    maxSize: maxMessageBytes,
    maxEntrySize: Math.max(1, Math.floor(maxMessageBytes / 8)),
    sizeCalculation: messageBytes,
  });
  const pngs = new LRUCache<string, Buffer>({
    maxSize: maxPngBytes,
    maxEntrySize: Math.max(1, Math.floor(maxPngBytes / 4)),
    // The key (the SVG text) is held too.
    sizeCalculation: (png, svg) => png.length + 2 * svg.length,
  });
  let rendered = 0;
  let reused = 0;
  return {
    message(answer, variant, render) {
      const key = `${answer.map(identityOf).join(",")}\u0000${JSON.stringify(variant)}`;
      const kept = messages.get(key);
      if (kept) {
        reused += 1;
        return kept;
      }
      // Frozen whole: shared by every repeat, its body and reply bytes made once (messagePayload.ts).
      const message = deepFreeze(render());
      rendered += 1;
      messages.set(key, message);
      return message;
    },
    png(svg, render) {
      const kept = pngs.get(svg);
      if (kept) {
        reused += 1;
        return kept;
      }
      const png = render(svg);
      rendered += 1;
      pngs.set(svg, png);
      return png;
    },
    counts: () => ({ rendered, reused }),
  };
}

/** Freezes an object and everything it holds, except binary data (a Buffer cannot be frozen). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value))
    return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
