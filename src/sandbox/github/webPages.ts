/**
 * The stand-in's web pages for the repositories it serves, at github.com's paths: an owner
 * (`/alice`), a repository (`/demo/widgets`), a folder (`/demo/widgets/tree/<ref>/<path>`), a file
 * with line anchors (`/blob/<ref>/<path>#L10-L20`) and a commit (`/commit/<ref>`), so every link in
 * an answer opens. A page is what a visitor who is not signed in sees: a private repository is a
 * 404, as on github.com. A ref may hold slashes (`feature/gears`): the path is read after the
 * shortest leading segments that name a commit. More kinds of page (issues, pull requests) are one
 * entry each in {@link REPOSITORY_PAGES}.
 */
import type { GitRepository } from "./gitRepository.js";
import type { ParsedTreeEntry } from "./gitObjects.js";
import { runGitChecked, type GitOptions } from "./gitProcess.js";
import { escapeHtml, htmlPage, link, notFoundPage, webPath, type WebReply } from "./webHtml.js";
import type { World, WorldRepository } from "./world.js";

/** What the pages read: the world, and git for its repositories. */
export interface WebSite {
  world: World;
  git(repository: WorldRepository): GitRepository;
  gitOptions: GitOptions;
}

/** A page under `/<owner>/<name>/<kind>/...`; `rest` holds the decoded segments after `<kind>`. */
export type RepositoryPage = (
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
) => Promise<WebReply>;

/** Lines of a file page at most, and bytes: past either, the page says the file is too large. */
const MAX_PAGE_LINES = 20_000;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

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
  graphs: (site, repository, rest) =>
    rest.length === 1 && rest[0] === "contributors"
      ? contributorsPage(site, repository)
      : Promise.resolve(notFoundPage()),
};

function repositoryCrumbs(repository: WorldRepository, ref?: string, path = ""): string {
  const crumbs = [
    link(webPath(repository.owner), repository.owner),
    link(webPath(repository.owner, repository.name), repository.name),
  ];
  if (ref !== undefined && path !== "") {
    const parts = path.split("/");
    parts.forEach((part, index) => {
      const sub = parts.slice(0, index + 1).join("/");
      crumbs.push(
        index === parts.length - 1
          ? escapeHtml(part)
          : link(webPath(repository.owner, repository.name, "tree", ref, sub), part),
      );
    });
  }
  return crumbs.join(" / ");
}

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

/** Who committed to the default branch, most commits first (authors with an account linked). */
async function contributorsPage(site: WebSite, repository: WorldRepository): Promise<WebReply> {
  const git = site.git(repository);
  const branch = await git.defaultBranch();
  const tip = branch === null ? null : await git.branchTip(branch);
  const authors = tip === null ? [] : await git.authors(tip);
  const items = [...authors]
    .sort((a, b) => b.commits - a.commits)
    .map((author) => {
      const account = site.world.userForEmail(author.email);
      const who = account ? link(webPath(account.login), account.login) : escapeHtml(author.name);
      return `<li>${who}: ${author.commits} ${author.commits === 1 ? "commit" : "commits"}</li>`;
    })
    .join("\n");
  return htmlPage({
    title: `Contributors to ${repository.owner}/${repository.name}`,
    crumbs: repositoryCrumbs(repository),
    body: `<h1>Contributors</h1>\n${items ? `<ul>${items}</ul>` : "<p>No commits yet.</p>"}`,
  });
}

async function repositoryPage(site: WebSite, repository: WorldRepository): Promise<WebReply> {
  const git = site.git(repository);
  const branch = await git.defaultBranch();
  const tip = branch === null ? null : await git.branchTip(branch);
  const about = repository.description ? `<p>${escapeHtml(repository.description)}</p>\n` : "";
  if (branch === null || tip === null) {
    return htmlPage({
      title: `${repository.owner}/${repository.name}`,
      crumbs: repositoryCrumbs(repository),
      body: `${about}<p>This repository is empty.</p>`,
    });
  }
  const commit = await git.commit(tip);
  const entries = commit ? await git.tree(commit.tree) : null;
  return htmlPage({
    title: `${repository.owner}/${repository.name}`,
    crumbs: repositoryCrumbs(repository),
    body: `${about}<p class="meta">Branch ${escapeHtml(branch)} · ${link(
      webPath(repository.owner, repository.name, "commit", tip),
      tip.slice(0, 7),
    )}</p>\n${entriesTable(repository, branch, "", entries ?? [])}`,
  });
}

/** The first leading segments of `rest` that name a commit, and the path after them. */
async function splitRefAndPath(
  git: GitRepository,
  rest: readonly string[],
): Promise<{ ref: string; commitOid: string; path: string } | null> {
  for (let count = 1; count <= rest.length; count += 1) {
    const ref = rest.slice(0, count).join("/");
    const info = await git.resolve(`${ref}^{commit}`);
    if (info?.type === "commit") return { ref, commitOid: info.oid, path: rest.slice(count).join("/") };
  }
  return null;
}

/** The tree entry at `path` of a commit (walked from its root tree), or null. */
async function entryAt(git: GitRepository, commitOid: string, path: string): Promise<ParsedTreeEntry | null> {
  const commit = await git.commit(commitOid);
  if (!commit) return null;
  let entry: ParsedTreeEntry = { mode: "40000", name: "", oid: commit.tree, type: "tree" };
  for (const part of path.split("/").filter((segment) => segment !== "")) {
    if (entry.type !== "tree") return null;
    const found: ParsedTreeEntry | undefined = (await git.tree(entry.oid))?.find(
      (candidate) => candidate.name === part,
    );
    if (!found) return null;
    entry = found;
  }
  return entry;
}

function entriesTable(
  repository: WorldRepository,
  ref: string,
  folder: string,
  entries: readonly ParsedTreeEntry[],
): string {
  const sorted = [...entries].sort((a, b) =>
    (a.type === "tree") !== (b.type === "tree") ? (a.type === "tree" ? -1 : 1) : a.name.localeCompare(b.name),
  );
  const rows = sorted.map((entry) => {
    const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
    if (entry.type === "commit")
      return `<tr><td>📦 ${escapeHtml(entry.name)} @ ${escapeHtml(entry.oid.slice(0, 7))}</td></tr>`;
    const kind = entry.type === "tree" ? "tree" : "blob";
    const icon = entry.type === "tree" ? "📁" : entry.mode === "120000" ? "🔗" : "📄";
    return `<tr><td>${icon} ${link(webPath(repository.owner, repository.name, kind, ref, path), entry.name)}</td></tr>`;
  });
  return `<table class="entries">\n${rows.join("\n")}\n</table>`;
}

/** Splits a file's text into lines as git shows them: a final line end ends the last line. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** A file or folder at a ref; a folder asked as `blob` (or a file as `tree`) is redirected, as on github.com. */
async function objectPage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
  kind: "tree" | "blob",
): Promise<WebReply> {
  const git = site.git(repository);
  const at = await splitRefAndPath(git, rest);
  if (!at || (kind === "blob" && at.path === "")) return notFoundPage();
  const entry = await entryAt(git, at.commitOid, at.path);
  if (!entry || entry.type === "commit") return notFoundPage();
  const actual = entry.type === "tree" ? "tree" : "blob";
  if (actual !== kind) {
    const location = webPath(repository.owner, repository.name, actual, at.ref, at.path);
    return { status: 302, headers: { location }, body: "" };
  }
  const crumbs = repositoryCrumbs(repository, at.ref, at.path);
  const refLine = `<p class="meta">At ${escapeHtml(at.ref)} · ${link(
    webPath(repository.owner, repository.name, "commit", at.commitOid),
    at.commitOid.slice(0, 7),
  )}</p>`;
  const title = `${repository.owner}/${repository.name}${at.path ? `/${at.path}` : ""} at ${at.ref}`;
  if (entry.type === "tree") {
    const entries = (await git.tree(entry.oid)) ?? [];
    return htmlPage({
      title,
      crumbs,
      body: `${refLine}\n${entriesTable(repository, at.ref, at.path, entries)}`,
    });
  }
  const object = await git.object(entry.oid);
  if (!object) return notFoundPage();
  if (entry.mode === "120000") {
    const target = object.content.toString("utf8");
    return htmlPage({
      title,
      crumbs,
      body: `${refLine}\n<p>Symbolic link to <code>${escapeHtml(target)}</code></p>`,
    });
  }
  const size = object.content.length;
  if (object.content.subarray(0, 8000).includes(0)) {
    return htmlPage({ title, crumbs, body: `${refLine}\n<p>Binary file (${size} bytes): not shown.</p>` });
  }
  const lines = linesOf(object.content.toString("utf8"));
  if (size > MAX_PAGE_BYTES || lines.length > MAX_PAGE_LINES) {
    return htmlPage({
      title,
      crumbs,
      body: `${refLine}\n<p>This file is too large to show here (${size} bytes, ${lines.length} lines).</p>`,
    });
  }
  const rows = lines.map(
    (line, index) =>
      `<tr id="L${index + 1}"><td class="num"><a href="#L${index + 1}">${index + 1}</a></td><td class="line">${escapeHtml(line)}</td></tr>`,
  );
  return htmlPage({
    title,
    crumbs,
    lineAnchors: true,
    body: `${refLine}\n<p class="meta">${lines.length} lines · ${size} bytes</p>\n<table class="code">\n${rows.join("\n")}\n</table>`,
  });
}

/** `+3 −1 path` for each file a commit changed against its first parent (every file of a root commit). */
async function changedFiles(site: WebSite, repository: WorldRepository, oid: string): Promise<string[]> {
  const out = await runGitChecked(["diff-tree", "--no-commit-id", "--numstat", "-r", "--root", "-z", oid], {
    ...site.gitOptions,
    gitDir: repository.gitDir,
  });
  const fields = out.toString("utf8").split("\0");
  const files: string[] = [];
  for (const field of fields) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(field.replace(/^\n/, ""));
    if (match) files.push(`${match[1] === "-" ? "binary" : `+${match[1]} −${match[2]}`} ${match[3]}`);
  }
  return files;
}

async function commitPage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
): Promise<WebReply> {
  const git = site.git(repository);
  const ref = rest.join("/");
  const info = ref === "" ? null : await git.resolve(`${ref}^{commit}`);
  const commit = info?.type === "commit" ? await git.commit(info.oid) : null;
  if (!commit) return notFoundPage();
  const [headline = "", ...body] = commit.message.split("\n");
  const author = commit.author;
  const account = author ? site.world.userForEmail(author.email) : undefined;
  const who = account ? link(webPath(account.login), account.login) : escapeHtml(author?.name ?? "unknown");
  const when = author ? new Date(author.time * 1000).toISOString() : "";
  const parents = commit.parents
    .map((parent) => link(webPath(repository.owner, repository.name, "commit", parent), parent.slice(0, 7)))
    .join(", ");
  const files = await changedFiles(site, repository, commit.oid);
  const fileItems = files.map((file) => `<li><code>${escapeHtml(file)}</code></li>`).join("\n");
  return htmlPage({
    title: `${headline} · ${repository.owner}/${repository.name}@${commit.oid.slice(0, 7)}`,
    crumbs: repositoryCrumbs(repository),
    body:
      `<h1>${escapeHtml(headline)}</h1>\n` +
      (body.join("\n").trim() ? `<pre class="message">${escapeHtml(body.join("\n").trim())}</pre>\n` : "") +
      `<p class="meta">${who} committed ${escapeHtml(when)} · commit <code>${commit.oid}</code>` +
      `${parents ? ` · parent ${parents}` : ""} · ${link(
        webPath(repository.owner, repository.name, "tree", commit.oid),
        "Browse files",
      )}</p>\n` +
      `<h2>${files.length} changed ${files.length === 1 ? "file" : "files"}</h2>\n<ul>${fileItems}</ul>`,
  });
}
