import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/logger.js";

/** A JSON logger whose lines the test can read. */
export function capturingLogger(level: "debug" | "info" | "warn" = "debug"): {
  logger: Logger;
  text: () => string;
  lines: () => Array<Record<string, unknown>>;
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level, destination: stream, pretty: false });
  const text = (): string => chunks.join("");
  return {
    logger,
    text,
    lines: () =>
      text()
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A Redis URL where nothing listens: every connection is refused at once. */
export const REFUSING_REDIS_URL = "redis://127.0.0.1:1";

/** The local Redis the tests use (CI starts it). */
export const LOCAL_REDIS_URL = "redis://127.0.0.1:6379";
