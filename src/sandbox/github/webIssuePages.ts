/**
 * GitHub's issue and pull request pages, `/<owner>/<name>/issues/<n>` and `/<owner>/<name>/pull/<n>`
 * (with a pull request's tails: `/files`, `/commits`, `/checks`), on the stand-in's web host (see
 * webPages.ts). Issues and pull requests share one number sequence; as on github.com, an issue's
 * number asked under `pull/` and a pull request's under `issues/` are redirected to the page of what
 * the number is.
 */
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
import type { WorldIssue } from "./worldIssues.js";

/** The tails github.com serves under a pull request's page. */
const PULL_TAILS = new Set(["files", "commits", "checks"]);

/** The state as github.com's badge words it. */
function stateWords(issue: WorldIssue): string {
  const pull = issue.pullRequest;
  if (pull) {
    if (pull.mergedAt) return "Merged";
    if (issue.state === "CLOSED") return "Closed";
    return pull.isDraft ? "Draft" : "Open";
  }
  if (issue.state === "OPEN") return "Open";
  return issue.stateReason === "NOT_PLANNED" ? "Closed as not planned" : "Closed";
}

/** The page of issue or pull request `rest[0]`; the other kind's path redirects. */
function itemPage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
  asked: "issues" | "pull",
): Promise<WebReply> {
  const [numberText, tail, ...more] = rest;
  // `/pull/<n>/commits/<sha>` is a pull request's page too (at one of its commits).
  const tooLong = more.length > (tail === "commits" ? 1 : 0);
  if (numberText === undefined || !/^[1-9]\d{0,9}$/.test(numberText) || tooLong)
    return Promise.resolve(notFoundPage());
  const issue = repository.issues?.find((candidate) => candidate.number === Number(numberText));
  if (!issue) return Promise.resolve(notFoundPage());
  const actual = issue.pullRequest ? "pull" : "issues";
  if (tail !== undefined && (actual !== "pull" || !PULL_TAILS.has(tail)))
    return Promise.resolve(notFoundPage());
  if (actual !== asked) {
    const location = webPath(repository.owner, repository.name, actual, numberText);
    return Promise.resolve({ status: 302, headers: { location }, body: "" });
  }
  const author = issue.author ? link(webPath(issue.author), issue.author) : "ghost";
  const labels = (issue.labels ?? []).map((label) => `<code>${escapeHtml(label.name)}</code>`).join(" ");
  const pull = issue.pullRequest;
  const branches = pull
    ? `<p class="meta">wants to merge <code>${escapeHtml(pull.headRefName)}</code> into <code>${escapeHtml(pull.baseRefName)}</code></p>\n`
    : "";
  const body = issue.body
    ? `<pre>${escapeHtml(issue.body)}</pre>`
    : '<p class="meta">No description provided.</p>';
  return Promise.resolve(
    htmlPage({
      title: `${issue.title} · ${pull ? "Pull Request" : "Issue"} #${issue.number} · ${repository.owner}/${repository.name}`,
      crumbs: repositoryCrumbs(repository),
      body:
        `<h1>${escapeHtml(issue.title)} <span class="meta">#${issue.number}</span></h1>\n` +
        `<p class="meta">${escapeHtml(stateWords(issue))} · opened by ${author} · ${escapeHtml(issue.createdAt)}` +
        ` · ${issue.comments ?? 0} comments</p>\n` +
        branches +
        (labels ? `<p>${labels}</p>\n` : "") +
        body,
    }),
  );
}

/** `/<owner>/<name>/issues/<n>`. */
export function issuePage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
): Promise<WebReply> {
  return itemPage(site, repository, rest, "issues");
}

/** `/<owner>/<name>/pull/<n>[/files|/commits|/checks]`. */
export function pullPage(
  site: WebSite,
  repository: WorldRepository,
  rest: readonly string[],
): Promise<WebReply> {
  return itemPage(site, repository, rest, "pull");
}
