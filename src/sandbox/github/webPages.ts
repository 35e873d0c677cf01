/**
 * The stand-in's web pages for the repositories it serves, at github.com's paths: an owner
 * (`/alice`), a repository (`/demo/widgets`), a folder (`/demo/widgets/tree/<ref>/<path>`), a file
 * with line anchors (`/blob/<ref>/<path>#L10-L20`) and a commit (`/commit/<ref>`), so every link in
 * an answer opens. A page is what a visitor who is not signed in sees: a private repository is a
 * 404, as on github.com. A ref may hold slashes (`feature/gears`): the path is read after the
 * shortest leading segments that name a commit. More kinds of page (issues, pull requests) are one
 * entry each in {@link REPOSITORY_PAGES}.
 */
import { commitsPage } from "./webHistoryPage.js";
import { commitPage, contributorsPage } from "./webCommitPages.js";
import { issuePage, pullPage } from "./webIssuePages.js";
import { objectPage, repositoryPage } from "./webFilePages.js";
import {
  escapeHtml,
  htmlPage,
  link,
  notFoundPage,
  webPath,
  type RepositoryPage,
  type WebReply,
  type WebSite,
} from "./webHtml.js";
import type { World } from "./world.js";

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Whether a path is one of the web pages: a GET whose first segment is an account of the world.
 * Anything else keeps the stand-in's other answers (the API at the same host).
 */
export function isWebPagePath(world: World, pathname: string): boolean {
  const [first, second] = pathname
    .split("/")
    .slice(1)
    .map((segment) => decode(segment));
  if (!first) return false;
  if (first === "apps")
    return second !== undefined && second !== null && appUser(world, second) !== undefined;
  return world.owner(first) !== undefined;
}

/** The bot account of a GitHub App by its slug (`dependabot` is `dependabot[bot]`). */
function appUser(world: World, slug: string) {
  const user = world.user(`${slug}[bot]`);
  return user?.type === "Bot" ? user : undefined;
}

/** The page at `pathname` (see {@link isWebPagePath}), or GitHub's 404 page. */
export async function webPage(site: WebSite, method: string, pathname: string): Promise<WebReply> {
  if (method !== "GET" && method !== "HEAD") return notFoundPage();
  const segments = pathname
    .split("/")
    .filter((segment) => segment !== "")
    .map(decode);
  if (segments.some((segment) => segment === null)) return notFoundPage();
  const [owner, name, kind, ...rest] = segments as string[];
  if (owner === undefined) return notFoundPage();
  if (owner === "apps")
    return name !== undefined && kind === undefined ? appPage(site, name) : notFoundPage();
  if (name === undefined) return ownerPage(site, owner);
  const repository = site.world.repository(owner, name);
  if (!repository || !site.world.canSee(null, repository)) return notFoundPage();
  if (kind === undefined) return repositoryPage(site, repository);
  const page = REPOSITORY_PAGES[kind];
  return page ? page(site, repository, rest) : notFoundPage();
}

/** The pages under a repository, by the segment after `<owner>/<name>`. */
export const REPOSITORY_PAGES: Record<string, RepositoryPage> = {
  tree: (site, repository, rest) => objectPage(site, repository, rest, "tree"),
  blob: (site, repository, rest) => objectPage(site, repository, rest, "blob"),
  commit: commitPage,
  commits: commitsPage,
  issues: issuePage,
  pull: pullPage,
  graphs: (site, repository, rest) =>
    rest.length === 1 && rest[0] === "contributors"
      ? contributorsPage(site, repository)
      : Promise.resolve(notFoundPage()),
};

async function ownerPage(site: WebSite, login: string): Promise<WebReply> {
  const owner = site.world.owner(login);
  if (!owner) return notFoundPage();
  const account = owner.kind === "User" ? owner.user : owner.organization;
  const repositories = site.world
    .repositoriesOwnedBy(account.login)
    .filter((repository) => site.world.canSee(null, repository));
  const items = repositories
    .map(
      (repository) =>
        `<li>${link(webPath(repository.owner, repository.name), repository.name)}${
          repository.description ? ` <span class="meta">${escapeHtml(repository.description)}</span>` : ""
        }</li>`,
    )
    .join("\n");
  const heading = account.name ? `${account.name} (${account.login})` : account.login;
  return htmlPage({
    title: account.login,
    body:
      `<h1>${escapeHtml(heading)}</h1><p class="meta">${owner.kind === "User" ? "User" : "Organization"}</p>\n` +
      `<h2>Repositories</h2>\n${items ? `<ul>${items}</ul>` : "<p>No public repositories.</p>"}`,
  });
}

function appPage(site: WebSite, slug: string): Promise<WebReply> {
  const user = appUser(site.world, slug);
  if (!user) return Promise.resolve(notFoundPage());
  return Promise.resolve(
    htmlPage({
      title: `GitHub App: ${slug}`,
      body: `<h1>${escapeHtml(slug)}</h1><p class="meta">GitHub App · acts as ${escapeHtml(user.login)}</p>`,
    }),
  );
}
