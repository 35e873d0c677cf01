/** Error codes of a connection the other side dropped: worth one more try for a read. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
/** undici codes that mean a bad call, not a bad network. */
const NOT_NETWORK_CODES = new Set(["UND_ERR_INVALID_ARG", "UND_ERR_NOT_SUPPORTED", "UND_ERR_ABORTED"]);
const RESET_MESSAGE = /socket hang up|other side closed|connection reset|ECONNRESET/i;

/** The error and its `cause` chain (undici wraps the socket error in `TypeError: fetch failed`). */
function* causeChain(error: unknown): Generator<unknown> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    yield current;
    current = typeof current === "object" && "cause" in current ? current.cause : undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "";
}

/** True when the connection was reset or closed under the request (ECONNRESET, "socket hang up"). */
export function isConnectionReset(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const code = codeOf(link);
    if (code !== undefined && RESET_CODES.has(code)) return true;
    if (RESET_MESSAGE.test(messageOf(link))) return true;
  }
  return false;
}

/**
 * True when `fetch` failed for a network reason (refused, reset, DNS, TLS) rather than because of a
 * bug such as an invalid URL: undici's `fetch failed`, or a system error code anywhere in the chain.
 */
export function isNetworkError(error: unknown): boolean {
  if (isConnectionReset(error)) return true;
  for (const link of causeChain(error)) {
    if (link instanceof TypeError && link.message === "fetch failed") return true;
    const code = codeOf(link);
    if (code !== undefined && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code) && !NOT_NETWORK_CODES.has(code)) {
      return true;
    }
  }
  return false;
}
