/** The GitHub client's public API: import from here. */
export { createGitHubClient, userAgentFor, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "./client.js";
export type { GitHubClient, GitHubClientOptions } from "./client.js";
export { createMemoryConditionalStore } from "./conditionalStore.js";
export type { ConditionalEntry, ConditionalStore } from "./conditionalStore.js";
export { DOCUMENTS } from "./documents.js";
export type { OperationName } from "./documents.js";
export * from "./errors.js";
export { parseLinkHeader, pageOfLink } from "./linkHeader.js";
export type { LinkRelations } from "./linkHeader.js";
export type * from "./types.js";
export type { MeteredToken, TokenSpend, TokenUse } from "./tokenSpend.js";
