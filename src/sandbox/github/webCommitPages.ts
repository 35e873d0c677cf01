/** The commit and contributors pages of the stand-in's web host (see webPages.ts). */
import { runGitChecked } from "./gitProcess.js";
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

/** Who committed to the default branch, most commits first (authors with an account linked). */
export async function contributorsPage(site: WebSite, repository: WorldRepository): Promise<WebReply> {
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

/** A commit: its message, author, parents and the files it changed. */
export async function commitPage(
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
