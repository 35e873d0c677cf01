import { createGitHubClient, type GitHubClient } from "../../src/github/index.js";
import { silentLogger } from "../../src/logger.js";
import type { GitHubStandIn } from "../../src/sandbox/github/index.js";

/** The bot's GitHub client pointed at a running local GitHub, silent, with a readable fingerprint. */
export function standInClient(standIn: GitHubStandIn): GitHubClient {
  return createGitHubClient({
    graphqlUrl: standIn.graphqlUrl,
    restUrl: standIn.restUrl,
    version: "test",
    logger: silentLogger(),
    fingerprint: (token) => Buffer.from(token).toString("hex").slice(0, 32),
  });
}
