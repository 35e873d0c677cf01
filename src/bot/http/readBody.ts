import type { IncomingMessage } from "node:http";

/**
 * Reads a request's body up to `maxBytes`: "tooLarge" as soon as it is known to be over (from
 * Content-Length, or while reading), holding no more than the bound in memory. The rest of an
 * oversized body is left unread: the caller answers and closes the connection.
 */
export function readCappedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | "tooLarge"> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve("tooLarge");
  return new Promise((resolve, reject) => {
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
      resolve("tooLarge");
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks)));
    request.once("error", reject);
  });
}
