/**
 * The repository, folder and file pages of the stand-in's web host (see webPages.ts): a ref may
 * hold slashes (`feature/gears`), so the path is read after the shortest leading segments that
 * name a commit; a file has an anchor on every line.
 */
import type { GitRepository } from "./gitRepository.js";
import type { ParsedTreeEntry } from "./gitObjects.js";
import {
  escapeHtml,
  htmlPage,
  link,
  notFoundPage,
  repositoryCrumbs,
  webPath,
  type WebReply,
  type WebSite,
} from "./webHtml.js";
import type { WorldRepository } from "./world.js";

/** Lines of a file page at most, and bytes: past either, the page says the file is too large. */
const MAX_PAGE_LINES = 20_000;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** A repository's page: its description and the root of its default branch. */
export async function repositoryPage(site: WebSite, repository: WorldRepository): Promise<WebReply> {
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
export async function objectPage(
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
