import type { Logger } from "../../logger.js";
import type { ConditionalStore } from "../conditionalStore.js";
import type { GraphQLTransport } from "../graphqlTransport.js";
import type { RateLimitBook } from "../rateLimits.js";
import type { RestTransport } from "../restTransport.js";
import type { TokenSpend } from "../tokenSpend.js";

/** What every operation of the client uses; built once by `createGitHubClient`. */
export interface OperationDeps {
  graphql: GraphQLTransport;
  rest: RestTransport;
  /** REST v3 base, without a trailing slash. */
  restUrl: string;
  conditionalStore: ConditionalStore;
  book: RateLimitBook;
  logger: Logger;
  now: () => Date;
}

/** The token of one call and its fingerprint (the only form of it that may be kept or logged). */
export interface Credentials {
  token: string;
  fingerprint: string;
  /** Told what each answer cost (see ../tokenSpend.ts), when the caller meters the token. */
  onSpend?: ((spend: TokenSpend) => void) | undefined;
}
