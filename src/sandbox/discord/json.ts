/** A parsed JSON object whose fields are not yet checked. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Length as Discord counts it: in Unicode code points, so an emoji outside the BMP counts once
 * (JavaScript's `length` would count its two UTF-16 halves).
 */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** A deep copy of JSON-compatible data, so stored payloads never alias what a caller holds. */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}
