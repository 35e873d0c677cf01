import type { Freshness } from "../format/message.js";
import type { AnswerPrivacy } from "../format/privacy.js";
import type { CommitAnswer, IssueAnswer } from "../github/issueTypes.js";
import type { TokenOrigin } from "../tokens/tokenResolver.js";
import type { HistoryPage } from "../github/ownershipTypes.js";
import type { FetchedOwners } from "./ownershipAnswers.js";
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

/**
 * Who asks, and in which server: what decides the token in effect (SPEC section 4). `guildId` is
 * the server whose token and settings apply (null in a DM, and where the bot serves a user install
 * only); `userId` is the asker's Discord id (their own sign-in comes first).
 */
export interface Asker {
  guildId: string | null;
  userId: string;
  /** False: never the asker's own sign-in, only the server's or the default token (automatic previews). */
  ownSignIn?: boolean;
}

/** An answer with how fresh it is. */
export interface Fetched<T> {
  value: T;
  freshness: Freshness;
  origin: TokenOrigin;
  /**
   * Set when the answer was drawn from a private or internal repository, or lists some (SPEC
   * section 4): commands pass it on to the answer, and the router keeps it from the channel.
   */
  privacy?: AnswerPrivacy;
}

/** A page of an owner's repositories, as asked. */
export interface RepositoriesArgs {
  login: string;
  first: number;
  after?: string;
  sort: RepositorySort;
}

/**
 * The answers RepoScout gives, fetched with the token in effect for the asker and through the cache.
 * Commands talk to this, never to the client or the cache directly.
 */
export interface Scout {
  viewer(asker: Asker): Promise<Fetched<Viewer>>;
  /** What `viewer` would give, when this process can tell at once (as {@link Scout.heldBlame}). */
  heldViewer?(asker: Asker): Fetched<Viewer> | undefined;
  blame(asker: Asker, args: { repo: RepoRef; ref?: string; path: string }): Promise<Fetched<BlameAnswer>>;
  contents(
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Promise<Fetched<ContentsAnswer>>;
  /**
   * What `blame` would give, when this process can tell at once: the token in effect and a public
   * answer held in process, read lately through the same steps (./createScout.ts, held reads).
   * Undefined when `blame` must take its steps.
   */
  heldBlame?(
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Fetched<BlameAnswer> | undefined;
  /** What `contents` would give, when this process can tell at once (as {@link Scout.heldBlame}). */
  heldContents?(
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Fetched<ContentsAnswer> | undefined;
  repositories(asker: Asker, args: RepositoriesArgs): Promise<Fetched<RepositoriesPage>>;
  /** What `repositories` would give, when this process can tell at once (as {@link Scout.heldBlame}). */
  heldRepositories?(asker: Asker, args: RepositoriesArgs): Fetched<RepositoriesPage> | undefined;
  contributors(asker: Asker, args: { repo: RepoRef; page: number }): Promise<Fetched<ContributorsPage>>;
  /**
   * What `contributors` would give, when this process can tell at once (as {@link Scout.heldBlame}):
   * the page and the repository's access both held, public, and no "not found" note to read.
   */
  heldContributors?(
    asker: Asker,
    args: { repo: RepoRef; page: number },
  ): Fetched<ContributorsPage> | undefined;
  /** An issue or a pull request by number: short-lived, but a merged pull request lives long. */
  issue(asker: Asker, args: { repo: RepoRef; number: number }): Promise<Fetched<IssueAnswer>>;
  /** A commit by ref (default: the default branch): pinned by its id, long-lived. */
  commit(asker: Asker, args: { repo: RepoRef; ref?: string }): Promise<Fetched<CommitAnswer>>;
  /** One page of the commits that touched a path (10 a page), pinned to the commit it read. */
  history(
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string; after?: string },
  ): Promise<Fetched<HistoryPage>>;
  /** Who knows a file or a folder: blame of its files, CODEOWNERS, recent commits (see ownershipAnswers.ts). */
  owners(asker: Asker, args: { repo: RepoRef; ref?: string; path: string }): Promise<FetchedOwners>;
  /**
   * The repositories recently read with the token in effect for this asker, most recent first
   * (autocomplete's "recent"): never what another token read. Empty when no token is in effect.
   */
  recentRepositories(asker: Asker): Promise<string[]>;
  /** Where the token in effect comes from; undefined when there is none. Asks GitHub nothing. */
  tokenOrigin(asker: Asker): Promise<TokenOrigin | undefined>;
  /** The last rate-limit figures seen for the token in effect, if any. */
  rateLimit(asker: Asker): Promise<RateLimitSnapshot | undefined>;
}
