import { GitHubError } from "../github/errors.js";
import type { TokenSpend, TokenUse } from "../github/tokenSpend.js";
import type { DefaultTokenShare } from "../tokens/defaultTokenShare.js";
import type { ResolvedToken, TokenAsker } from "../tokens/tokenResolver.js";
import { SignInRenewalUnavailableError, SignInReplacedError } from "../tokens/userTokens.js";
import { isPrivateRepository, PrivateRepositoryError, readsPublicOnly } from "./privateAccess.js";
import { recordReader } from "./recordReader.js";

/** GitHub's budget a call draws on: GraphQL's or REST's (`core`). */
export type UpstreamResource = "graphql" | "core";

/**
 * One upstream call with the token in effect: every read of GitHub the Scout makes, the cheap
 * access reads included, goes through one of these, so none escapes fair use.
 */
export type Upstream = <T>(
  asker: TokenAsker,
  resolved: ResolvedToken,
  resource: UpstreamResource,
  call: (token: TokenUse) => Promise<T>,
) => Promise<T>;

/**
 * Creates the Scout's upstream call (SPEC section 4):
 *
 * - with the default token, the asker's server and the asker must have some of their share left,
 *   and what GitHub says the call cost is counted against both (cache hits never get here: they
 *   are free);
 * - a GitHub error records whose token read, for its sentence;
 * - through a public-only token, an error about something inside a private repository (a missing
 *   path, a made-up ref, an empty repository) becomes the repository being private: what a private
 *   repository holds, or does not, is not for that token to tell.
 */
export function createUpstream(options: {
  /** Fair use of the default token; absent: not metered. */
  share?: DefaultTokenShare | undefined;
  /** `GITHUB_TOKEN_ALLOW_PRIVATE`. */
  defaultTokenAllowPrivate: boolean;
}): Upstream {
  const { share } = options;
  return async (asker, resolved, resource, call) => {
    const publicOnly = readsPublicOnly(resolved, options.defaultTokenAllowPrivate);
    try {
      return await recordReader({ origin: resolved.origin, publicOnly }, async () => {
        if (resolved.origin !== "default" || !share) return call(resolved.token);
        await share.check(asker, resource);
        const spends: TokenSpend[] = [];
        try {
          return await call({ token: resolved.token, onSpend: (spend) => spends.push(spend) });
        } finally {
          await share.charge(asker, spends);
        }
      });
    } catch (error) {
      const inside = error instanceof GitHubError ? error.seenRepository : undefined;
      if (publicOnly && inside && isPrivateRepository(inside)) {
        throw new PrivateRepositoryError(inside.nameWithOwner);
      }
      throw error;
    }
  };
}

/**
 * Runs `work` (which resolves the token in effect itself) again, once, when GitHub refused a
 * person's token that another process had renewed meanwhile (or that a new sign-in replaced): the
 * second run reads the new one. Replaced twice in a row, the person reads that the renewal is
 * under way and to try again; they are still signed in.
 */
export async function againIfTokenReplaced<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SignInReplacedError)) throw error;
  }
  try {
    return await work();
  } catch (error) {
    if (error instanceof SignInReplacedError) throw new SignInRenewalUnavailableError({ cause: error });
    throw error;
  }
}
