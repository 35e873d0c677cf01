import { inject } from "vitest";
import type { Transport } from "../../src/bot/bot.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** How the end-to-end tests' bot takes interactions: set per project in vitest.config.ts. */
    e2eTransport: Transport;
  }
}

/**
 * The transport this end-to-end pass runs the bot on: vitest.config.ts runs the suite once over
 * the gateway and once over HTTP (signed POSTs to the bot's `/interactions`), the same tests both
 * times. Outside those projects, the gateway.
 */
export function e2eTransport(): Transport {
  return inject("e2eTransport") ?? "gateway";
}
