import type { GitRepository } from "./gitRepository.js";
import type { World, WorldRepository, WorldUser } from "./world.js";

const DOCS = "https://docs.github.com/rest/repos/repos#list-repository-contributors";

/** One contributor, before it is shaped as a REST item. */
export type ContributorEntry =
  | { kind: "account"; user: WorldUser; contributions: number }
  | { kind: "anonymous"; name: string; email: string; contributions: number };

/** A REST answer: status, headers and JSON body (null: no body). */
export interface RestAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * The contributors of the history at `tip`: commit counts by author email, emails of one account
 * folded into its login, the rest anonymous (by email). Sorted by contributions, descending; ties
 * in a stable order (accounts by login, then anonymous ones by email).
 */
export async function computeContributors(
  world: World,
  git: GitRepository,
  tip: string,
): Promise<ContributorEntry[]> {
  const accounts = new Map<string, { user: WorldUser; contributions: number }>();
  const anonymous = new Map<string, { name: string; email: string; contributions: number }>();
  for (const author of await git.authors(tip)) {
    const user = world.userForEmail(author.email);
    if (user) {
      const known = accounts.get(user.login);
      if (known) known.contributions += author.commits;
      else accounts.set(user.login, { user, contributions: author.commits });
    } else {
      const key = author.email.toLowerCase();
      const known = anonymous.get(key);
      if (known) known.contributions += author.commits;
      else anonymous.set(key, { name: author.name, email: author.email, contributions: author.commits });
    }
  }
  const entries: ContributorEntry[] = [
    ...[...accounts.values()].map((account) => ({ kind: "account" as const, ...account })),
    ...[...anonymous.values()].map((guest) => ({ kind: "anonymous" as const, ...guest })),
  ];
  const tieKey = (entry: ContributorEntry): string =>
    entry.kind === "account" ? `0${entry.user.login.toLowerCase()}` : `1${entry.email.toLowerCase()}`;
  return entries.sort((a, b) => b.contributions - a.contributions || tieKey(a).localeCompare(tieKey(b)));
}

/** A REST `simple-user` item with `contributions`, as GitHub lists contributors. */
export function accountItem(
  user: WorldUser,
  contributions: number,
  apiUrl: string,
  htmlUrl: string,
): Record<string, unknown> {
  const type = user.type ?? "User";
  const login = user.login;
  const userApi = `${apiUrl}/users/${encodeURIComponent(login)}`;
  return {
    login,
    id: user.id,
    node_id: Buffer.from(`0${type.length}:${type}${user.id}`, "utf8").toString("base64"),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: "",
    url: userApi,
    html_url: type === "Bot" ? `${htmlUrl}/apps/${login.replace(/\[bot\]$/, "")}` : `${htmlUrl}/${login}`,
    followers_url: `${userApi}/followers`,
    following_url: `${userApi}/following{/other_user}`,
    gists_url: `${userApi}/gists{/gist_id}`,
    starred_url: `${userApi}/starred{/owner}{/repo}`,
    subscriptions_url: `${userApi}/subscriptions`,
    organizations_url: `${userApi}/orgs`,
    repos_url: `${userApi}/repos`,
    events_url: `${userApi}/events{/privacy}`,
    received_events_url: `${userApi}/received_events`,
    type,
    user_view_type: "public",
    site_admin: user.siteAdmin === true,
    contributions,
  };
}

/** Reads a positive integer query parameter; anything else gives `fallback`. */
export function positiveInteger(value: string | null, fallback: number): number {
  if (value === null || !/^\d+$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/**
 * `GET /repos/{owner}/{repo}/contributors` for a repository the caller may see: 403 for one marked
 * too large, 204 for an empty one, else a page of items with a Link header when there are several
 * pages (`prev`, `next`, `last`, `first`, pointing at `/repositories/{id}/contributors`).
 *
 * @param linkBase absolute base the Link header points under (`http://127.0.0.1:PORT` or `.../api/v3`)
 * @param htmlUrl base of `html_url` (`https://github.com`)
 */
export async function contributorsAnswer(options: {
  world: World;
  repository: WorldRepository;
  git: GitRepository;
  query: URLSearchParams;
  linkBase: string;
  htmlUrl: string;
}): Promise<RestAnswer> {
  const { world, repository, git, query } = options;
  if (repository.contributorsTooLarge) {
    return {
      status: 403,
      headers: {},
      body: {
        message:
          "The history or contributor list is too large to list contributors for this repository via the API.",
        documentation_url: DOCS,
        status: "403",
      },
    };
  }
  const branch = await git.defaultBranch();
  const tip = branch === null ? null : await git.branchTip(branch);
  if (tip === null) return { status: 204, headers: {}, body: null };

  const anon = /^(1|true)$/i.test(query.get("anon") ?? "");
  const perPage = Math.min(100, positiveInteger(query.get("per_page"), 30));
  const page = positiveInteger(query.get("page"), 1);
  const all = (await computeContributors(world, git, tip)).filter(
    (entry) => anon || entry.kind === "account",
  );
  const items = all
    .slice((page - 1) * perPage, page * perPage)
    .map((entry) =>
      entry.kind === "account"
        ? accountItem(entry.user, entry.contributions, options.linkBase, options.htmlUrl)
        : { email: entry.email, name: entry.name, type: "Anonymous", contributions: entry.contributions },
    );

  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const headers: Record<string, string> = {};
  const link = linkHeader(
    `${options.linkBase}/repositories/${repository.id}/contributors`,
    query,
    page,
    lastPage,
  );
  if (link) headers.link = link;
  return { status: 200, headers, body: items };
}

/**
 * GitHub's Link header: prev, next, last, first (as they apply), keeping the other parameters. Past
 * the last page GitHub still says where the list ends: `prev` points at the last page (not at the
 * page before the one asked for) and `last` is kept, beside `first` (measured on api.github.com
 * listings: `page=99` of a 6-page list answers `[]` with prev 6, last 6, first 1).
 */
export function linkHeader(
  base: string,
  query: URLSearchParams,
  page: number,
  lastPage: number,
): string | null {
  const url = (target: number): string => {
    const params = new URLSearchParams(query);
    params.delete("page");
    params.append("page", String(target));
    return `<${base}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (page > lastPage) {
    return [`${url(lastPage)}; rel="prev"`, `${url(lastPage)}; rel="last"`, `${url(1)}; rel="first"`].join(
      ", ",
    );
  }
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (page < lastPage) links.push(`${url(page + 1)}; rel="next"`, `${url(lastPage)}; rel="last"`);
  if (page > 1) links.push(`${url(1)}; rel="first"`);
  return links.length === 0 ? null : links.join(", ");
}
