/** A parsed JSON object whose fields are not yet checked. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/**
 * Length as Discord counts it: in Unicode code points, so an emoji outside the BMP counts once
 * (JavaScript's `length` would count its two UTF-16 halves).
 */
export function codePointLength(text: string): number {
  // A string without a high surrogate is as long as its UTF-16 length (V8 answers at once for a
  // string stored a byte per character); otherwise a surrogate pair counts once, a lone half once.
  // Counting through the string's iterator took 16 µs for a 3,500-character blame description
  // (2.9 µs this way, 5.8 with an emoji in it), and the local Discord counts each message's texts
  // twice (each field's limit, the embed's total).
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let length = text.length;
  SURROGATE_PAIR.lastIndex = 0;
  while (SURROGATE_PAIR.exec(text)) length--;
  return length;
}

/**
 * A deep copy of JSON-compatible data, so stored payloads never alias what a caller holds. Plain
 * objects, arrays and primitives are copied here; anything else (a Buffer of an attachment, a Date)
 * goes through structuredClone. structuredClone for everything was 11.8% of the load driver's CPU
 * under the bench's gateway overload, where the local Discord shares a core with the driver: it
 * serializes and deserializes each value whole, which a walk over a small payload does not.
 */
export function cloneJson<T>(value: T): T {
  return copyJson(value, false) as T;
}

/**
 * `{ ...base, ...more }`, each property set in turn onto a new plain object, as a spread defines it
 * (a `__proto__` key stays an own field). For the objects the local Discord makes per request and
 * keeps: in Node 20's V8 an object literal that starts with a spread and goes on (`{ ...a, b }`),
 * or a spread copy given a property afterwards, gets a hidden class of its own, unlike any other.
 * A load run's driver kept thousands of them (interaction payloads and states, embed fields,
 * components, a heap snapshot found), each with its own map, so no inline cache held across them
 * and each survived the young collections it met. Objects made here share their shape, as
 * `copyJson`'s do (the same rule for the bot: src/withFields.ts, eslint.config.js). A copy given
 * some 20 fields or more this way keeps them in a dictionary (V8's limit on fields added by key):
 * complete such an object in place instead (./dispatchInteraction.ts).
 */
export function merged<Base extends object, More extends object = Record<never, never>>(
  base: Base,
  more?: More,
): Omit<Base, keyof More> & More {
  const out: JsonObject = {};
  assignOwn(out, base);
  if (more) assignOwn(out, more);
  return out as Omit<Base, keyof More> & More;
}

function assignOwn(target: JsonObject, source: object): void {
  const keys = Object.keys(source);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    setField(target, key, (source as JsonObject)[key]);
  }
}

/** Sets a field as JSON.parse or a spread defines it: a "__proto__" key is an own field, not the prototype. */
function setField(target: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * A deep copy of JSON data with every object's keys in code-unit order, as Discord sends an
 * interaction: payloads captured from its HTTP requests list each object's fields sorted
 * (`app_permissions`, `application_id`, …, `type`, `version`; `data`'s `id`, `name`, `options`,
 * `type`; each option's `name`, `type`, `value`), and the gateway's INTERACTION_CREATE is taken to
 * carry the same object (README, "taken on trust"). Arrays keep their order.
 */
export function sortedJson<T>(value: T): T {
  return copyJson(value, true) as T;
}

/** A deep copy, each object's keys in their order or (`sorted`) in code-unit order. */
function copyJson(value: unknown, sorted: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copyJson(value[index], sorted);
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: JsonObject = {};
  // Keys, not entries: an entry is an array of its own for every field copied.
  const keys = sorted ? Object.keys(value).sort() : Object.keys(value);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    setField(copy, key, copyJson((value as JsonObject)[key], sorted));
  }
  return copy;
}
