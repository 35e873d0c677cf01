/**
 * The HTML of the stand-in's web pages (github.com's repository pages, simply drawn): escaping,
 * the one layout every page shares, breadcrumbs, and what a page is given (`WebSite`). Text from repositories (file contents, commit messages, names)
 * only ever reaches a page through {@link escapeHtml}.
 */

import type { GitRepository } from "./gitRepository.js";
import type { GitOptions } from "./gitProcess.js";
import type { World, WorldRepository } from "./world.js";

const HTML_TYPE = "text/html; charset=utf-8";

/** One answer of the web host. */
export interface WebReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Text as HTML text or attribute value: `&`, `<`, `>`, quotes escaped. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}

/** A path of the web host with each segment percent-encoded (`/demo/widgets/blob/main/with%20space.md`). */
export function webPath(...segments: string[]): string {
  return `/${segments
    .flatMap((segment) => segment.split("/"))
    .filter((segment) => segment !== "")
    .map(encodeURIComponent)
    .join("/")}`;
}

/** A link: `href` is built by {@link webPath} or is a fragment; the label is escaped here. */
export function link(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

// Highlights the lines a `#L10-L20` anchor names and scrolls to the first, as github.com does
// (with script there too: a fragment alone only scrolls to one element).
const LINE_ANCHOR_SCRIPT = `<script>
(function () {
  function mark() {
    document.querySelectorAll("tr.selected").forEach(function (row) { row.classList.remove("selected"); });
    var match = /^#L(\\d+)(?:C\\d+)?(?:-L(\\d+)(?:C\\d+)?)?$/.exec(location.hash);
    if (!match) return;
    var first = Number(match[1]), last = Number(match[2] || match[1]);
    for (var line = Math.min(first, last); line <= Math.max(first, last); line += 1) {
      var row = document.getElementById("L" + line);
      if (row) row.classList.add("selected");
    }
    var top = document.getElementById("L" + Math.min(first, last));
    if (top) top.scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", mark);
  mark();
})();
</script>`;

const STYLE = `<style>
body{font-family:system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#1f2328}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
nav.crumbs{font-size:1.1rem;margin-bottom:.5rem}.meta{color:#59636e}
table{border-collapse:collapse;width:100%}td{padding:.15rem .5rem;vertical-align:top}
table.entries td{border-top:1px solid #d1d9e0}table.code{font-family:ui-monospace,monospace;font-size:.85rem}
table.code td.num{text-align:right;color:#59636e;user-select:none;width:1%;white-space:nowrap}
table.code td.num a{color:inherit}table.code td.line{white-space:pre}
tr.selected td{background:#fff8c5}pre.message{white-space:pre-wrap;font-family:inherit}
</style>`;

/**
 * A whole page: `<title>` and heading from `title`, the breadcrumbs above (already HTML, built with
 * {@link link}), the body (already HTML). `lineAnchors` adds the script that highlights `#L10-L20`.
 */
export function htmlPage(options: {
  title: string;
  crumbs?: string;
  body: string;
  status?: number;
  lineAnchors?: boolean;
}): WebReply {
  return {
    status: options.status ?? 200,
    headers: { "content-type": HTML_TYPE, "cache-control": "no-store" },
    body: `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(options.title)} · GitHub stand-in</title>
${STYLE}
</head>
<body>
${options.crumbs ? `<nav class="crumbs">${options.crumbs}</nav>\n` : ""}${options.body}
<p class="meta"><small>RepoScout's local GitHub stand-in: simple pages of the repositories it serves.</small></p>
${options.lineAnchors ? LINE_ANCHOR_SCRIPT : ""}
</body>
</html>
`,
  };
}

/** GitHub's 404 page, as a visitor who is not signed in meets it (private repositories included). */
export function notFoundPage(): WebReply {
  return htmlPage({
    title: "Page not found",
    status: 404,
    body: "<h1>404</h1><p>This is not the web page you are looking for.</p>",
  });
}

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

/** The breadcrumbs of a repository page: owner / name, then each folder of `path` at `ref`. */
export function repositoryCrumbs(repository: WorldRepository, ref?: string, path = ""): string {
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
