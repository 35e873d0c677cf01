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
}

export interface WorldRepository {
  /** Login of the owning user or organization. */
  owner: string;
  name: string;
  /** GitHub's numeric id (the `/repositories/{id}` of Link headers). */
  id: number;
  /** Absolute path of the bare git directory. */
  gitDir: string;
  isPrivate?: boolean;
  description?: string | null;
  /** Logins that may see the repository although they do not own it. */
  collaborators?: string[];
  /** GitHub refuses to list contributors of this repository (403 "too large"). */
  contributorsTooLarge?: boolean;
  /** ISO time; default: the committer date of the default branch's tip (null when empty). */
  pushedAt?: string | null;
}

/** Everything the stand-in needs to know about its world, as plain data. */
export interface WorldDefinition {
  users: WorldUser[];
  organizations: WorldOrganization[];
  repositories: WorldRepository[];
  /** Token -> login of the user it authenticates. */
  tokens: Record<string, string>;
}

/** A user or an organization, as `repositoryOwner(login)` sees it. */
export type WorldOwner =
  { kind: "User"; user: WorldUser } | { kind: "Organization"; organization: WorldOrganization };

/** Matches GitHub's private commit emails: `<id>+<login>@users.noreply.github.com` or `<login>@...`. */
const NOREPLY = /^(?:(\d+)\+)?([^@+]+)@users\.noreply\.github\.com$/i;

/**
 * The world, indexed. Logins and repository names match without regard to case, as on GitHub, and
 * every answer carries the canonical spelling.
 */
export class World {
  readonly definition: WorldDefinition;
  readonly #users = new Map<string, WorldUser>();
  readonly #organizations = new Map<string, WorldOrganization>();
  readonly #repositories = new Map<string, WorldRepository>();
  readonly #repositoriesById = new Map<number, WorldRepository>();
  readonly #emails = new Map<string, WorldUser>();
  readonly #tokens = new Map<string, WorldUser>();

  constructor(definition: WorldDefinition) {
    this.definition = definition;
    for (const user of definition.users) {
      this.#users.set(user.login.toLowerCase(), user);
      for (const email of user.emails ?? []) this.#emails.set(email.toLowerCase(), user);
    }
    for (const organization of definition.organizations) {
      this.#organizations.set(organization.login.toLowerCase(), organization);
    }
    for (const repository of definition.repositories) {
      this.#repositories.set(`${repository.owner}/${repository.name}`.toLowerCase(), repository);
      this.#repositoriesById.set(repository.id, repository);
    }
    for (const [token, login] of Object.entries(definition.tokens)) this.addToken(token, login);
  }

  /** Makes `token` authenticate `login` (a user of the world). */
  addToken(token: string, login: string): void {
    const user = this.user(login);
    if (!user) throw new Error(`addToken: no user ${login} in the world`);
    this.#tokens.set(token, user);
  }

  /** The user a token authenticates; undefined for an unknown token. */
  userForToken(token: string): WorldUser | undefined {
    return this.#tokens.get(token);
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
   * Whether `login` (null: nobody signed in) may see the repository: public ones always; private ones
   * by the owner, the owning organization's members and the collaborators.
   */
  canSee(login: string | null, repository: WorldRepository): boolean {
    if (!repository.isPrivate) return true;
    if (login === null) return false;
    const key = login.toLowerCase();
    if (repository.owner.toLowerCase() === key) return true;
    if ((repository.collaborators ?? []).some((collaborator) => collaborator.toLowerCase() === key))
      return true;
    const organization = this.organization(repository.owner);
    return (organization?.members ?? []).some((member) => member.toLowerCase() === key);
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
