import { accountItem, linkHeader, positiveInteger, type RestAnswer } from "./contributors.js";
import { formatDateTime, type GitSignature } from "./gitObjects.js";
import type { ChangedFile, GitRepository } from "./gitRepository.js";
import type { World, WorldRepository } from "./world.js";

const DOCS = "https://docs.github.com/rest/commits/commits#get-a-commit";
/** Files a page of a commit lists by default and at most (GITHUB-FACTS.md). */
export const COMMIT_FILES_PER_PAGE = 300;
/** Files a commit lists in all, over every page. */
export const COMMIT_FILES_LIMIT = 3_000;

const STATUS: Record<ChangedFile["status"], string> = {
  A: "added",
  D: "removed",
  M: "modified",
  R: "renamed",
  C: "copied",
  T: "changed",
};

/** A commit's author or committer as the REST `commit` object gives it. */
function gitUser(signature: GitSignature | null): Record<string, string> | null {
  return signature
    ? { name: signature.name, email: signature.email, date: formatDateTime(signature.time) }
    : null;
}

/**
 * `GET /repos/{owner}/{repo}/commits/{ref}` for a repository the caller may see: the commit (`ref` a
 * sha, branch or tag), its `stats` and its `files` against the first parent, 300 a page (`page`,
 * `per_page`, and a Link header when there are more), 3,000 in all; 422 "No commit found for SHA"
 * for a ref that names no commit. Not played: `patch` (GitHub omits it for binary or large diffs;
 * the stand-in always does) and `verification`.
 *
 * @param linkBase absolute base the Link header and API URLs point under
 */
export async function commitAnswer(options: {
  world: World;
  repository: WorldRepository;
  git: GitRepository;
  ref: string;
  query: URLSearchParams;
  linkBase: string;
  htmlUrl: string;
}): Promise<RestAnswer> {
  const { world, repository, git, ref, query, linkBase, htmlUrl } = options;
  const info = await git.resolve(ref);
  // A tag names its commit (`^{commit}` peels it); anything else naming no commit is GitHub's 422.
  const peeled = info?.type === "tag" ? await git.resolve(`${info.oid}^{commit}`) : info;
  const commit = peeled?.type === "commit" ? await git.commit(peeled.oid) : null;
  if (!commit) {
    return {
      status: 422,
      headers: {},
      body: { message: `No commit found for SHA: ${ref}`, documentation_url: DOCS, status: "422" },
    };
  }
  const files = ((await git.diff(commit.oid)) ?? []).slice(0, COMMIT_FILES_LIMIT);
  // Unconfirmed: GitHub documents `per_page` for this endpoint; a value above 300 is read as 300.
  const perPage = Math.min(
    COMMIT_FILES_PER_PAGE,
    positiveInteger(query.get("per_page"), COMMIT_FILES_PER_PAGE),
  );
  const page = positiveInteger(query.get("page"), 1);
  const repoPath = `${repository.owner}/${repository.name}`;
  const apiRepo = `${linkBase}/repos/${repoPath}`;
  const webRepo = `${htmlUrl}/${repoPath}`;
  const person = (signature: GitSignature | null) => {
    const user = signature ? world.userForEmail(signature.email) : undefined;
    if (!user) return null;
    const { contributions: _, ...item } = accountItem(user, 0, linkBase, htmlUrl);
    return item;
  };
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  const body = {
    sha: commit.oid,
    node_id: Buffer.from(`06:Commit${repository.id}:${commit.oid}`, "utf8").toString("base64"),
    commit: {
      author: gitUser(commit.author),
      committer: gitUser(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${apiRepo}/git/trees/${commit.tree}` },
      url: `${apiRepo}/git/commits/${commit.oid}`,
      comment_count: 0,
    },
    url: `${apiRepo}/commits/${commit.oid}`,
    html_url: `${webRepo}/commit/${commit.oid}`,
    comments_url: `${apiRepo}/commits/${commit.oid}/comments`,
    author: person(commit.author),
    committer: person(commit.committer),
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${apiRepo}/commits/${sha}`,
      html_url: `${webRepo}/commit/${sha}`,
    })),
    stats: { total: additions + deletions, additions, deletions },
    files: files.slice((page - 1) * perPage, page * perPage).map((file) => ({
      sha: file.status === "D" ? null : file.blobOid,
      filename: file.path,
      status: STATUS[file.status],
      additions: file.additions,
      deletions: file.deletions,
      changes: file.additions + file.deletions,
      blob_url: `${webRepo}/blob/${commit.oid}/${encodeURI(file.path)}`,
      raw_url: `${webRepo}/raw/${commit.oid}/${encodeURI(file.path)}`,
      contents_url: `${apiRepo}/contents/${encodeURI(file.path)}?ref=${commit.oid}`,
      ...(file.previousPath !== undefined ? { previous_filename: file.previousPath } : {}),
    })),
  };
  const lastPage = Math.max(1, Math.ceil(files.length / perPage));
  const link = linkHeader(
    `${linkBase}/repositories/${repository.id}/commits/${commit.oid}`,
    query,
    page,
    lastPage,
  );
  return { status: 200, headers: link ? { link } : {}, body };
}
