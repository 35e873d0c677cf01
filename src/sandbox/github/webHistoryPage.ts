/**
 * GitHub's history page, `/<owner>/<name>/commits/<ref>[/<path>]`, on the stand-in's web host (see
 * webPages.ts): the commits from `ref` that touched the path, newest first, as `git log -- path`
 * lists them (history.ts), 100 at most, each linked to its commit page.
 */
import { historyOf } from "./history.js";
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

/** Commits a page lists. */
const PAGE = 100;

/** The history page of a path (the whole repository without one). */
export async function commitsPage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
): Promise<WebReply> {
  const git = site.git(repository);
  // A ref may hold slashes (`feature/gears`): the shortest leading part that names a commit wins.
  for (let split = 1; split <= rest.length; split += 1) {
    const ref = rest.slice(0, split).join("/");
    const info = await git.resolve(`${ref}^{commit}`);
    if (info?.type !== "commit") continue;
    const path = rest.slice(split).join("/");
    const entries = await historyOf(git, info.oid, path === "" ? null : path);
    const items: string[] = [];
    for (const entry of entries.slice(0, PAGE)) {
      const commit = await git.commit(entry.oid);
      const headline = commit?.message.split("\n", 1)[0] ?? "";
      const account = site.world.userForEmail(entry.authorEmail);
      const who = account
        ? link(webPath(account.login), account.login)
        : escapeHtml(commit?.author?.name ?? "");
      const when = new Date(entry.committerTime * 1000).toISOString();
      items.push(
        `<li>${link(webPath(repository.owner, repository.name, "commit", entry.oid), entry.oid.slice(0, 7))} ${escapeHtml(headline)} <span class="meta">${who} · ${escapeHtml(when)}</span></li>`,
      );
    }
    const subject = path === "" ? `${repository.owner}/${repository.name}` : path;
    return htmlPage({
      title: `History for ${subject} · ${repository.owner}/${repository.name}`,
      crumbs: repositoryCrumbs(repository, ref, path),
      body:
        `<h1>History for ${escapeHtml(subject)}</h1>\n` +
        `<p class="meta">${entries.length} ${entries.length === 1 ? "commit" : "commits"} from <code>${escapeHtml(ref)}</code>${entries.length > PAGE ? `, the newest ${PAGE} listed` : ""}</p>\n` +
        (items.length > 0 ? `<ul>${items.join("\n")}</ul>` : "<p>No commits touched this path.</p>"),
    });
  }
  return notFoundPage();
}
