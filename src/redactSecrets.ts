import { stdSerializers } from "pino";

/**
 * What may never reach a log line (SPEC section 4: no GitHub token, no interaction token, no
 * webhook URL with a token, no file content of a private repository), and the functions that take
 * it out of whatever is logged. `src/logger.ts` runs every line through {@link redactSecrets}: the
 * merge object, the message and the child bindings, so it holds whoever logs (the router, the
 * threads helper, discord.js client events, the GitHub client).
 */

/** What replaces a secret in a log line. */
export const REDACTED = "[REDACTED]";

/**
 * Field names whose values are secrets wherever they appear in a log object: tokens, secrets,
 * keys, passwords, credentials, Authorization and cookie headers. Matching on the name (at any
 * depth) rather than on a fixed list of paths means a new field called `serverToken` is redacted
 * too. The price: a harmless field must not be named like a secret (log `cacheId`, not `cacheKey`).
 * An OAuth device code is a credential too: whoever holds it while it lives can collect the token.
 */
const SECRET_FIELD = /token|secret|key|passw|authori[sz]ation|cookie|credential|device_?code/i;

/**
 * Names that say something ABOUT a secret rather than hold one: whose token read (`tokenOrigin`:
 * default, server, you), when it expires or was stored, how long it lives, how many there are.
 * Operators need these to understand an answer; their values still go through
 * {@link scrubSecrets}, so a token put in one by mistake is still taken out.
 */
const DESCRIBES_A_SECRET_FIELD =
  /(?:origin|source|kind|type|scopes?|expiresAt|storedAt|lifetimeMs|count|allowPrivate|share)$/i;

/**
 * Fields that carry what was SENT to Discord or GitHub: message contents, embeds, attached files
 * (discord.js's `DiscordAPIError.requestBody` is `{ files, json }`). An answer from a private
 * repository is in there, so none of it is ever serialised, not even cut.
 */
const REQUEST_BODY_FIELD = /^(?:requestBody|rawBody|files|attachments)$/;

/**
 * Fields that carry what an upstream ANSWERED (`response.body` of a GitHub error, `bodyText`): a
 * GraphQL answer holds the file's text next to its errors. Only the parts that explain a failure
 * are kept (see {@link summariseBody}).
 */
const RESPONSE_BODY_FIELD = /^(?:body|bodyText|responseBody)$/;

/**
 * Fields whose value is plainly a commit id (GitHub's `oid`, `sha`, `commit`...). A bare 40-hex
 * value is read as a legacy token everywhere else (see {@link scrubSecrets}); here it stays, so
 * a log can still say which commit an answer was pinned to.
 */
const COMMIT_ID_FIELD = /^(?:oid|sha|commit|commitId|commitOid|commitSha|pinnedOid|abbreviatedOid)$/i;
const COMMIT_ID = /^[0-9a-f]{40}$/i;

/**
 * GitHub token formats (classic `ghp_`, OAuth `gho_`, user-to-server `ghu_`, server-to-server
 * `ghs_`, refresh `ghr_`, fine-grained `github_pat_`) anywhere in text. No word boundary in front:
 * `x_ghp_...` or `token=ghp_...` glue the token to a word character, and `\b` would miss it.
 */
const GITHUB_TOKEN_IN_TEXT = /gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}/g;

/** A credential after an auth scheme word (`bearer x`, `token x`, `Bot x`, `Basic x`). */
const SCHEME_CREDENTIAL_IN_TEXT = /\b(bearer|token|bot|basic)(\s+)[A-Za-z0-9._~+/=-]{12,}/gi;

/** A credential assigned to a name that says so (`access_token=x`, `"client_secret": "x"`). */
const ASSIGNED_CREDENTIAL_IN_TEXT =
  /((?:access_|refresh_|id_)?token|client_secret|secret|password|passwd|api_?key|authorization|device_code)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\])[^\s"'&,;}]{8,}/gi;

/** A password in a URL's userinfo: `https://user:secret@host/`. */
const URL_PASSWORD_IN_TEXT = /(\/\/[^/\s:@]+:)[^/\s@]+@/g;

/**
 * The token segment of Discord's interaction and webhook routes: `/interactions/{id}/{token}/...`
 * and `/webhooks/{application}/{token}/...` (what a `DiscordAPIError`'s `url` holds). discord.js
 * writes route templates as `/webhooks/:id/:token`: a segment starting with `:` is no token.
 */
const DISCORD_ROUTE_TOKEN_IN_TEXT = /(\/(?:interactions|webhooks)\/(?:\d{5,25}|:id)\/)(?!:)[^/?#\s"'<>]+/gi;

/** Discord's interaction tokens are base64 of `interaction:<id>:...`: found by shape, anywhere. */
const INTERACTION_TOKEN_IN_TEXT = /aW50ZXJhY3Rpb246[A-Za-z0-9_\-+=]*/g;

/**
 * A legacy GitHub token: 40 lowercase hex characters (before the `ghp_` formats, 2021). It has the
 * shape of a commit id and cannot be told from one by looking, so in free text it is redacted
 * wherever it stands alone (safety first: a commit id in a message costs a little debugging, a
 * token costs an account). Longer hex runs (SHA-256 digests, cache keys) are left alone.
 */
const HEX40_IN_TEXT = /(?<![0-9A-Fa-f])[0-9a-fA-F]{40}(?![0-9A-Fa-f])/g;

/** Replaces secret-looking substrings of a string (an upstream error message, a URL, a log message). */
export function scrubSecrets(text: string): string {
  return text
    .replace(INTERACTION_TOKEN_IN_TEXT, REDACTED)
    .replace(DISCORD_ROUTE_TOKEN_IN_TEXT, (_match, route: string) => `${route}${REDACTED}`)
    .replace(GITHUB_TOKEN_IN_TEXT, REDACTED)
    .replace(URL_PASSWORD_IN_TEXT, (_match, head: string) => `${head}${REDACTED}@`)
    .replace(ASSIGNED_CREDENTIAL_IN_TEXT, (_match, name: string, glue: string) => `${name}${glue}${REDACTED}`)
    .replace(
      SCHEME_CREDENTIAL_IN_TEXT,
      (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`,
    )
    .replace(HEX40_IN_TEXT, REDACTED);
}

/** How much of a body that is not JSON is kept (an HTML error page says enough in its title). */
const MAX_TEXT_BODY = 300;

/**
 * What a log keeps of an upstream answer's body: for JSON, only the fields that explain a failure
 * (`message`, `errors`, `documentation_url`, `status`, `code`); `data` (file text, folder entries)
 * is dropped and its size noted. Other text is cut short. Secrets are scrubbed either way.
 */
export function summariseBody(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const cut =
      body.length > MAX_TEXT_BODY ? `${body.slice(0, MAX_TEXT_BODY)}... (${body.length} chars)` : body;
    return scrubSecrets(cut);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return `[${Array.isArray(parsed) ? "JSON array" : "JSON value"} of ${body.length} chars omitted]`;
  }
  const record = parsed as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const name of ["message", "errors", "documentation_url", "status", "code"]) {
    if (name in record) kept[name] = record[name];
  }
  const dropped = Object.keys(record).filter((name) => !(name in kept));
  if (dropped.length > 0) kept.omitted = `${dropped.join(", ")} (${body.length} chars in all)`;
  return scrubSecrets(JSON.stringify(kept).slice(0, 2_000));
}

const MAX_DEPTH = 8;

function isBinary(value: object): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

/** One field of a log object, judged by its name first. */
function redactField(key: string, item: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (item === undefined || item === null) return item;
  if (SECRET_FIELD.test(key) && !DESCRIBES_A_SECRET_FIELD.test(key)) return REDACTED;
  if (REQUEST_BODY_FIELD.test(key)) return "[request body omitted]";
  if (RESPONSE_BODY_FIELD.test(key) && typeof item === "string") return summariseBody(item);
  if (COMMIT_ID_FIELD.test(key) && typeof item === "string" && COMMIT_ID.test(item)) return item;
  return redactSecrets(item, depth + 1, seen);
}

/**
 * Returns a copy of a log object with every secret field redacted, request bodies and binary data
 * left out, response bodies summarised, and secret-looking text scrubbed. Errors are serialized
 * first (pino's `err` shape), so what an error carries (a request's headers, a `DiscordAPIError`'s
 * URL and request body) goes through the same rules.
 */
export function redactSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (value instanceof Error) return redactSecrets(stdSerializers.err(value), depth + 1, seen);
  if (isBinary(value)) return `[${value.byteLength} bytes]`;
  if (typeof Blob !== "undefined" && value instanceof Blob) return `[${value.size} bytes]`;
  if (value instanceof Date) return value;
  if (value instanceof URL) return scrubSecrets(value.href);
  if (value instanceof Map) return redactSecrets(Object.fromEntries(value), depth, seen);
  if (typeof Headers !== "undefined" && value instanceof Headers) {
    return redactSecrets(Object.fromEntries(value.entries()), depth, seen);
  }
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactField(key, item, depth, seen);
  return out;
}
