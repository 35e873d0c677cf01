import type { IncomingMessage } from "node:http";

/**
 * Reads a request's body up to `maxBytes`: "tooLarge" as soon as it is known to be over (from
 * Content-Length, or while reading), holding no more than the bound in memory; "aborted" when the
 * request ends without its body (the client went away, or the server's request timeout closed it),
 * so that the caller always learns the outcome and releases what it holds. The rest of an oversized
 * body is left unread: the caller answers and closes the connection.
 */
export function readCappedBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<Buffer | "tooLarge" | "aborted"> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve("tooLarge");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      request.off("data", onData);
      request.pause();
      chunks.length = 0;
      resolve("tooLarge");
    };
    request.on("data", onData);
    // One chunk (Discord's few KB usually arrive in one) is the body as it is: each chunk is a
    // buffer of its own, and a copy would draw it again from Node's pools.
    request.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    // A promise settles once: after "end" these change nothing.
    request.once("error", () => resolve("aborted"));
    request.once("close", () => resolve("aborted"));
  });
}
