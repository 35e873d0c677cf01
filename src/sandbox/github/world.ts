import type { WorldCommitChecks, WorldIssue } from "./worldIssues.js";

/**
 * The world the stand-in serves: accounts, organizations, repositories (each a bare git directory),
 * who can see what, which token is whose, and which commit emails belong to which account.
 */

/** An account: a person (`User`) or an app's bot account (`Bot`, login ending in `[bot]`). */
export interface WorldUser {
  login: string;
  /** GitHub's numeric id (REST `id`, GraphQL `databaseId`). */
  id: number;
  type?: "User" | "Bot";
  name?: string | null;
  siteAdmin?: boolean;
  /** Commit emails that belong to this account (matched without regard to case). */
  emails?: string[];
}

export interface WorldOrganization {
  login: string;
  id: number;
  name?: string | null;
  /** Logins of the members; members see the organization's private repositories. */
  members?: string[];
  /**
   * The enterprise the organization belongs to, if any: the members of every organization of one
   * enterprise see each other's internal repositories.
   */
  enterprise?: string;
}

/** GitHub's `RepositoryVisibility`. */
export type WorldVisibility = "PUBLIC" | "PRIVATE" | "INTERNAL";

export interface WorldRepository {
  /** Login of the owning user or organization. */
  owner: string;
  name: string;
  /** GitHub's numeric id (the `/repositories/{id}` of Link headers). */
  id: number;
  /** Absolute path of the bare git directory. */
  gitDir: string;
  isPrivate?: boolean;
  /**
   * Overrides `isPrivate` when set. `INTERNAL` (an organization's repository visible to its
   * enterprise's members, not to the public) reads `isPrivate: true`, as on GitHub.
   */
  visibility?: WorldVisibility;
  description?: string | null;
  /** Logins that may see the repository although they do not own it. */
  collaborators?: string[];
  /** Its issues and pull requests (one number sequence), see ./worldIssues.ts. */
  issues?: WorldIssue[];
  /** Checks and statuses reported on its commits. */
  checks?: WorldCommitChecks[];
  /** GitHub refuses to list contributors of this repository (403 "too large"). */
  contributorsTooLarge?: boolean;
  /** ISO time; default: the committer date of the default branch's tip (null when empty). */
  pushedAt?: string | null;
  /**
   * What the repository is in the world for ("a private repository", "more than a page of
   * contributors"), for people exploring the world (the sandbox's `/demo`). Never served.
   */
  note?: string;
}

/**
 * An app registered on GitHub that people sign in to with the device flow: an OAuth app (scopes,
 * `gho_` tokens that do not expire) or a GitHub App (`ghu_` tokens; with expiring user tokens, which
 * GitHub App settings turn on by default, they last 8 hours and come with a `ghr_` refresh token).
 */
export interface WorldApp {
  kind: "oauth-app" | "github-app";
  /** Shown on the device page ("Authorize <name>"). */
  name: string;
  clientId: string;
  clientSecret: string;
  /** "Enable Device Flow" in the app's settings (default true). */
  deviceFlow?: boolean;
  /** GitHub App only: user tokens expire and are renewed with a refresh token (default true). */
  expiringTokens?: boolean;
  /** Lifetime of an expiring user token, in seconds (default 28,800: 8 hours). */
  tokenLifetimeSeconds?: number;
  /** Lifetime of a refresh token, in seconds (default 15,811,200: 6 months). */
  refreshTokenLifetimeSeconds?: number;
}

/** Everything the stand-in needs to know about its world, as plain data. */
export interface WorldDefinition {
  users: WorldUser[];
  organizations: WorldOrganization[];
  repositories: WorldRepository[];
  /** Token -> login of the user it authenticates. */
  tokens: Record<string, string>;
  /** Apps people can sign in to (`/login/device/code`); none when absent. */
  apps?: WorldApp[];
}

/** A user or an organization, as `repositoryOwner(login)` sees it. */
export type WorldOwner =
  { kind: "User"; user: WorldUser } | { kind: "Organization"; organization: WorldOrganization };

/** Matches GitHub's private commit emails: `<id>+<login>@users.noreply.github.com` or `<login>@...`. */
const NOREPLY = /^(?:(\d+)\+)?([^@+]+)@users\.noreply\.github\.com$/i;

function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The world, indexed. Logins and repository names match without regard to case, as on GitHub, and
 * every answer carries the canonical spelling.
 *
 * The world is the stand-in's own copy of the definition it was given. Who may see what can change
 * while the stand-in runs, as it does on GitHub when an owner removes a collaborator or a member, or
 * makes a repository private: only through {@link setVisibility}, {@link setCollaborators} and
 * {@link setMembers}, each of which bumps {@link revision} so that no answer computed before the
 * change is reused after it. ({@link addToken} adds a way in for an existing user: it changes no
 * answer.)
 */
export class World {
  readonly definition: WorldDefinition;
  #revision = 0;
  readonly #users = new Map<string, WorldUser>();
  readonly #organizations = new Map<string, WorldOrganization>();
  readonly #repositories = new Map<string, WorldRepository>();
  readonly #repositoriesById = new Map<number, WorldRepository>();
  readonly #emails = new Map<string, WorldUser>();
  readonly #tokens = new Map<string, { user: WorldUser; expiresAt: number | null }>();
  readonly #apps = new Map<string, WorldApp>();

  constructor(definition: WorldDefinition) {
    // Its own copy: a change at run time must not reach another stand-in built from the same data.
    this.definition = structuredClone(definition);
    const own = this.definition;
    for (const user of own.users) {
      this.#users.set(user.login.toLowerCase(), user);
      for (const email of user.emails ?? []) this.#emails.set(email.toLowerCase(), user);
    }
    for (const organization of own.organizations) {
      this.#organizations.set(organization.login.toLowerCase(), organization);
    }
    for (const repository of own.repositories) {
      this.#repositories.set(`${repository.owner}/${repository.name}`.toLowerCase(), repository);
      this.#repositoriesById.set(repository.id, repository);
    }
    for (const [token, login] of Object.entries(own.tokens)) this.addToken(token, login);
    for (const app of own.apps ?? []) this.#apps.set(app.clientId, app);
  }

  /** Grows with every change of the world after it was built (see the class comment). */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Makes `token` authenticate `login` (a user of the world), until `expiresAt` (epoch ms) when
   * given: from then on GitHub answers it 401, as for a token it never issued.
   */
  addToken(token: string, login: string, options: { expiresAt?: number | null } = {}): void {
    const user = this.user(login);
    if (!user) throw new Error(`addToken: no user ${login} in the world`);
    this.#tokens.set(token, { user, expiresAt: options.expiresAt ?? null });
  }

  /** Makes a token dead (revoked): @returns whether it was known. */
  removeToken(token: string): boolean {
    return this.#tokens.delete(token);
  }

  /** The user a token authenticates at `now` (epoch ms); undefined for an unknown or expired token. */
  userForToken(token: string, now: number = Date.now()): WorldUser | undefined {
    const entry = this.#tokens.get(token);
    if (!entry || (entry.expiresAt !== null && now >= entry.expiresAt)) return undefined;
    return entry.user;
  }

  /** A registered app by client id (exact, as GitHub matches it). */
  app(clientId: string): WorldApp | undefined {
    return this.#apps.get(clientId);
  }

  /** Changes a repository's visibility, as its owner can in its settings. */
  setVisibility(owner: string, name: string, visibility: WorldVisibility): void {
    const repository = this.#requireRepository("setVisibility", owner, name);
    repository.visibility = visibility;
    repository.isPrivate = visibility !== "PUBLIC";
    this.#revision += 1;
  }

  /** Replaces a repository's collaborators (an empty list removes them all). */
  setCollaborators(owner: string, name: string, logins: readonly string[]): void {
    const repository = this.#requireRepository("setCollaborators", owner, name);
    repository.collaborators = [...logins];
    this.#revision += 1;
  }

  /** Replaces an organization's members, as an owner adding or removing people would. */
  setMembers(organization: string, logins: readonly string[]): void {
    const found = this.organization(organization);
    if (!found) throw new Error(`setMembers: no organization ${organization} in the world`);
    found.members = [...logins];
    this.#revision += 1;
  }

  #requireRepository(what: string, owner: string, name: string): WorldRepository {
    const repository = this.repository(owner, name);
    if (!repository) throw new Error(`${what}: no repository ${owner}/${name} in the world`);
    return repository;
  }

  /** A repository's visibility: `visibility` when set, else from `isPrivate`. */
  visibilityOf(repository: WorldRepository): WorldVisibility {
    return repository.visibility ?? (repository.isPrivate ? "PRIVATE" : "PUBLIC");
  }

  user(login: string): WorldUser | undefined {
    return this.#users.get(login.toLowerCase());
  }

  organization(login: string): WorldOrganization | undefined {
    return this.#organizations.get(login.toLowerCase());
  }

  /** A user or organization by login; undefined when neither exists. */
  owner(login: string): WorldOwner | undefined {
    const user = this.user(login);
    if (user) return { kind: "User", user };
    const organization = this.organization(login);
    if (organization) return { kind: "Organization", organization };
    return undefined;
  }

  repository(owner: string, name: string): WorldRepository | undefined {
    return this.#repositories.get(`${owner}/${name}`.toLowerCase());
  }

  repositoryById(id: number): WorldRepository | undefined {
    return this.#repositoriesById.get(id);
  }

  /** The repositories an owner owns, in definition order. */
  repositoriesOwnedBy(login: string): WorldRepository[] {
    const key = login.toLowerCase();
    return this.definition.repositories.filter((repository) => repository.owner.toLowerCase() === key);
  }

  /** Repositories `login` collaborates on (listed as a collaborator, not the owner). */
  repositoriesCollaboratedBy(login: string): WorldRepository[] {
    const key = login.toLowerCase();
    return this.definition.repositories.filter((repository) =>
      (repository.collaborators ?? []).some((collaborator) => collaborator.toLowerCase() === key),
    );
  }

  /** Organizations `login` is a member of. */
  organizationsOf(login: string): WorldOrganization[] {
    const key = login.toLowerCase();
    return this.definition.organizations.filter((organization) =>
      (organization.members ?? []).some((member) => member.toLowerCase() === key),
    );
  }

  /**
   * Whether `login` (null: nobody signed in) may see the repository: public ones always; private
   * ones by the owner, the owning organization's members and the collaborators; internal ones also
   * by the members of every organization of the owner's enterprise.
   */
  canSee(login: string | null, repository: WorldRepository): boolean {
    const visibility = this.visibilityOf(repository);
    if (visibility === "PUBLIC") return true;
    if (login === null) return false;
    if (sameLogin(repository.owner, login)) return true;
    if ((repository.collaborators ?? []).some((collaborator) => sameLogin(collaborator, login))) return true;
    const organization = this.organization(repository.owner);
    if ((organization?.members ?? []).some((member) => sameLogin(member, login))) return true;
    if (visibility !== "INTERNAL" || organization?.enterprise === undefined) return false;
    const enterprise = organization.enterprise;
    return this.organizationsOf(login).some((other) => other.enterprise === enterprise);
  }

  /**
   * The account a commit email belongs to: an email of the world, or GitHub's noreply address of an
   * account (`<id>+<login>@users.noreply.github.com`).
   */
  userForEmail(email: string): WorldUser | undefined {
    const known = this.#emails.get(email.toLowerCase());
    if (known) return known;
    const noreply = NOREPLY.exec(email);
    if (!noreply?.[2]) return undefined;
    const user = this.user(noreply[2]);
    if (!user) return undefined;
    return noreply[1] === undefined || Number(noreply[1]) === user.id ? user : undefined;
  }
}
