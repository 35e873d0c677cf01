import type { Freshness } from "../format/message.js";
import type { TokenOrigin } from "../tokens/tokenResolver.js";
import type {
  BlameAnswer,
  ContentsAnswer,
  ContributorsPage,
  RateLimitSnapshot,
  RepoRef,
  RepositoriesPage,
  RepositorySort,
  Viewer,
} from "../github/types.js";

export type { TokenOrigin };

/** An answer with how fresh it is. */
export interface Fetched<T> {
  value: T;
  freshness: Freshness;
  origin: TokenOrigin;
}

/**
 * The answers RepoScout gives, fetched with the token in effect for a server and through the cache.
 * Commands talk to this, never to the client or the cache directly.
 */
export interface Scout {
  viewer(guildId: string | null): Promise<Fetched<Viewer>>;
  blame(
    guildId: string | null,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Promise<Fetched<BlameAnswer>>;
  contents(
    guildId: string | null,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Promise<Fetched<ContentsAnswer>>;
  repositories(
    guildId: string | null,
    args: { login: string; first: number; after?: string; sort: RepositorySort },
  ): Promise<Fetched<RepositoriesPage>>;
  contributors(
    guildId: string | null,
    args: { repo: RepoRef; page: number },
  ): Promise<Fetched<ContributorsPage>>;
  /** The last rate-limit figures seen for the token in effect, if any. */
  rateLimit(guildId: string | null): Promise<RateLimitSnapshot | undefined>;
}
