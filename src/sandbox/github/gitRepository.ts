import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { blameRanges, parseBlamePorcelain, type BlameRangeData } from "./blame.js";
import { CatFileProcess, type ObjectInfo, type RawObject } from "./catFile.js";
import {
  parseCommit,
  parseTag,
  parseTree,
  type ParsedCommit,
  type ParsedTag,
  type ParsedTreeEntry,
} from "./gitObjects.js";
import { runGit, runGitChecked, type GitOptions } from "./gitProcess.js";

/** One file a commit changed against its first parent (against nothing for a root commit). */
export interface ChangedFile {
  path: string;
  /** The path before a rename or copy. */
  previousPath?: string;
  /** git's letter: `A`dded, `D`eleted, `M`odified, `R`enamed, `C`opied, `T`ype changed. */
  status: "A" | "D" | "M" | "R" | "C" | "T";
  /** Lines added and deleted; 0 and 0 for a binary file, as git's numstat prints `-`. */
  additions: number;
  deletions: number;
  binary: boolean;
  /** The blob after the change (all zeros for a deleted file). */
  blobOid: string;
}

/** One author identity of the history and how many commits carry it. */
export interface AuthorCount {
  email: string;
  /** The name of the most recent commit with this email. */
  name: string;
  commits: number;
}

const FULL_OID = /^[0-9a-f]{40}$/;
/** Bytes of object contents kept in memory per repository; older entries are dropped first. */
const OBJECT_CACHE_BYTES = 96 * 1024 * 1024;

/**
 * Whether `expression` may be handed to git as a revision expression. Anything starting with `-`
 * could be read as an option (and no ref can start with `-`), and a line break would end the
 * cat-file command early, so both resolve to nothing, as they do on GitHub. Two syntaxes make
 * cat-file abort in a bare repository, so they resolve to nothing too: paths relative to a working
 * tree (`main:./a.ts`, `HEAD:../x`) and reflog or upstream lookups (`main@{1}`, `@{upstream}`).
 */
export function isSafeExpression(expression: string): boolean {
  if (expression.length === 0 || expression.startsWith("-") || /[\n\r\0]/.test(expression)) return false;
  if (expression.includes("@{")) return false;
  return !/:\.\.?(?:\/|$)/.test(expression);
}

/** Whether `path` may be used as a path inside a tree (`src/a.ts`; no leading `/`, no `..`). */
export function isSafeTreePath(path: string): boolean {
  if (path.length === 0 || path.startsWith("/") || /[\n\r\0]/.test(path)) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Read access to one bare repository, as GitHub's resolvers need it. Objects come from one
 * long-lived `git cat-file --batch-command`; everything keyed by an object id (objects, parsed
 * commits and trees, blame at a commit, the author counts of a commit's history) is immutable and
 * kept in memory, and concurrent identical requests share one computation.
 */
export class GitRepository {
  readonly gitDir: string;
  readonly #options: GitOptions;
  readonly #catFile: CatFileProcess;
  readonly #objects = new Map<string, RawObject>();
  #objectBytes = 0;
  readonly #infos = new Map<string, ObjectInfo>();
  readonly #commits = new Map<string, ParsedCommit>();
  readonly #trees = new Map<string, ParsedTreeEntry[]>();
  readonly #blames = new Map<string, Promise<BlameRangeData[] | null>>();
  readonly #authors = new Map<string, Promise<AuthorCount[]>>();
  readonly #diffs = new Map<string, Promise<ChangedFile[] | null>>();

  constructor(gitDir: string, options: GitOptions = {}) {
    this.gitDir = gitDir;
    this.#options = options;
    this.#catFile = new CatFileProcess(gitDir, options);
  }

  /** What a rev-parse expression (`main`, `HEAD`, `<sha>`, `main:src/a.ts`) names; null if nothing. */
  async resolve(expression: string): Promise<ObjectInfo | null> {
    if (!isSafeExpression(expression)) return null;
    const cached = FULL_OID.test(expression) ? this.#infos.get(expression) : undefined;
    if (cached) return cached;
    const info = await this.#catFile.info(expression);
    if (info) this.#infos.set(info.oid, info);
    return info;
  }

  /** The object with this id, with its bytes; null when the repository has no such object. */
  async object(oid: string): Promise<RawObject | null> {
    const cached = this.#objects.get(oid);
    if (cached) {
      // Refresh its place: the map's order is the eviction order.
      this.#objects.delete(oid);
      this.#objects.set(oid, cached);
      return cached;
    }
    if (!FULL_OID.test(oid)) return null;
    const object = await this.#catFile.contents(oid);
    if (!object) return null;
    this.#remember(object);
    return object;
  }

  /** The parsed commit with this id when it was read before (no I/O); undefined otherwise. */
  cachedCommit(oid: string): ParsedCommit | undefined {
    return this.#commits.get(oid);
  }

  /** The parsed commit with this id; null when it is not a commit of this repository. */
  async commit(oid: string): Promise<ParsedCommit | null> {
    const cached = this.#commits.get(oid);
    if (cached) return cached;
    const object = await this.object(oid);
    if (!object || object.type !== "commit") return null;
    const commit = parseCommit(oid, object.content);
    this.#commits.set(oid, commit);
    return commit;
  }

  /** The entries of the tree with this id; null when it is not a tree of this repository. */
  async tree(oid: string): Promise<ParsedTreeEntry[] | null> {
    const cached = this.#trees.get(oid);
    if (cached) return cached;
    const object = await this.object(oid);
    if (!object || object.type !== "tree") return null;
    const entries = parseTree(object.content);
    this.#trees.set(oid, entries);
    return entries;
  }

  /** The parsed annotated tag with this id; null when it is not a tag object. */
  async tag(oid: string): Promise<ParsedTag | null> {
    const object = await this.object(oid);
    if (!object || object.type !== "tag") return null;
    return parseTag(oid, object.content);
  }

  /** The branch HEAD points at (`main`), or null when HEAD is detached or unreadable. */
  async defaultBranch(): Promise<string | null> {
    try {
      const head = (await readFile(join(this.gitDir, "HEAD"), "utf8")).trim();
      const match = /^ref: refs\/heads\/(.+)$/.exec(head);
      return match?.[1] ?? null;
    } catch {
      return null;
    }
  }

  /** The commit id at the tip of a branch; null when there is no such branch. */
  async branchTip(branch: string): Promise<string | null> {
    const info = await this.resolve(`refs/heads/${branch}`);
    return info?.type === "commit" ? info.oid : null;
  }

  /** Whether the repository has no refs at all (GitHub's `isEmpty`). */
  async isEmpty(): Promise<boolean> {
    const branch = await this.defaultBranch();
    if (branch !== null && (await this.branchTip(branch)) !== null) return false;
    const refs = await runGitChecked(["for-each-ref", "--count=1", "--format=%(refname)"], {
      ...this.#options,
      gitDir: this.gitDir,
    });
    return refs.length === 0;
  }

  /**
   * Blame of `path` at the commit `commitOid` (a full id), as GitHub's ranges; null when the path is
   * not a file at that commit. Cached by commit id and path.
   */
  blame(commitOid: string, path: string): Promise<BlameRangeData[] | null> {
    const key = `${commitOid}\0${path}`;
    let pending = this.#blames.get(key);
    if (!pending) {
      pending = this.#computeBlame(commitOid, path);
      this.#blames.set(key, pending);
      // A failure is not an answer: let the next request try again.
      pending.catch(() => this.#blames.delete(key));
    }
    return pending;
  }

  /** Author emails of the history reachable from `commitOid`, with commit counts. Cached. */
  authors(commitOid: string): Promise<AuthorCount[]> {
    let pending = this.#authors.get(commitOid);
    if (!pending) {
      pending = this.#computeAuthors(commitOid);
      this.#authors.set(commitOid, pending);
      pending.catch(() => this.#authors.delete(commitOid));
    }
    return pending;
  }

  /**
   * The files `commitOid` (a full id) changed against `baseOid` (default: its first parent; a root
   * commit against the empty tree), renames detected as GitHub does; null when it is no commit.
   * Cached by the pair of ids.
   */
  diff(commitOid: string, baseOid?: string): Promise<ChangedFile[] | null> {
    const key = `${baseOid ?? ""}..${commitOid}`;
    let pending = this.#diffs.get(key);
    if (!pending) {
      pending = this.#computeDiff(commitOid, baseOid);
      this.#diffs.set(key, pending);
      pending.catch(() => this.#diffs.delete(key));
    }
    return pending;
  }

  /** The merge base of two commits (full ids); null when they share no history. */
  async mergeBase(a: string, b: string): Promise<string | null> {
    if (!FULL_OID.test(a) || !FULL_OID.test(b)) return null;
    const result = await runGit(["merge-base", a, b], { ...this.#options, gitDir: this.gitDir });
    const oid = result.stdout.toString("utf8").trim();
    return result.code === 0 && FULL_OID.test(oid) ? oid : null;
  }

  /** The commits reachable from `tip` and not from `base` (full ids), newest first. */
  async commitsBetween(base: string, tip: string): Promise<string[]> {
    if (!FULL_OID.test(base) || !FULL_OID.test(tip)) return [];
    const output = await runGitChecked(["rev-list", `${base}..${tip}`], {
      ...this.#options,
      gitDir: this.gitDir,
    });
    return output
      .toString("utf8")
      .split("\n")
      .filter((line) => FULL_OID.test(line));
  }

  /** Ends the cat-file process. */
  close(): void {
    this.#catFile.close();
  }

  async #computeBlame(commitOid: string, path: string): Promise<BlameRangeData[] | null> {
    if (!FULL_OID.test(commitOid) || !isSafeTreePath(path)) return null;
    const target = await this.resolve(`${commitOid}:${path}`);
    if (!target || target.type !== "blob") return null;
    // `git blame` (2.39) does not take --end-of-options; the revision is a validated full object id
    // and the path follows `--`, so neither can be read as an option.
    const result = await runGit(["blame", "--porcelain", commitOid, "--", path], {
      ...this.#options,
      gitDir: this.gitDir,
    });
    if (result.code !== 0) throw new Error(`git blame failed: ${result.stderr.trim()}`);
    return blameRanges(parseBlamePorcelain(result.stdout.toString("utf8")));
  }

  async #computeAuthors(commitOid: string): Promise<AuthorCount[]> {
    if (!FULL_OID.test(commitOid)) return [];
    const output = await runGitChecked(
      ["log", "--no-color", "--format=%aE%x00%aN%x00", "--end-of-options", commitOid],
      { ...this.#options, gitDir: this.gitDir },
    );
    const byEmail = new Map<string, AuthorCount>();
    const fields = output.toString("utf8").split("\0");
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const email = (fields[index] ?? "").replace(/^\n/, "");
      const name = fields[index + 1] ?? "";
      const key = email.toLowerCase();
      const known = byEmail.get(key);
      if (known) known.commits += 1;
      else byEmail.set(key, { email, name, commits: 1 });
    }
    return [...byEmail.values()];
  }

  async #computeDiff(commitOid: string, baseOid: string | undefined): Promise<ChangedFile[] | null> {
    if (!FULL_OID.test(commitOid) || (baseOid !== undefined && !FULL_OID.test(baseOid))) return null;
    const commit = await this.commit(commitOid);
    if (!commit) return null;
    const base = baseOid ?? commit.parents[0];
    // Validated full ids only, so neither can be read as an option.
    const revisions = base === undefined ? ["--root", commitOid] : [base, commitOid];
    const options = { ...this.#options, gitDir: this.gitDir };
    const [raw, numstat] = await Promise.all([
      runGitChecked(["diff-tree", "-r", "-z", "-M", "--no-commit-id", "--raw", ...revisions], options),
      runGitChecked(["diff-tree", "-r", "-z", "-M", "--no-commit-id", "--numstat", ...revisions], options),
    ]);
    const files: ChangedFile[] = [];
    const rawFields = raw.toString("utf8").split("\0");
    for (let index = 0; index < rawFields.length - 1;) {
      const header = rawFields[index++] ?? "";
      const parts = header.replace(/^:/, "").split(" ");
      const blobOid = parts[3] ?? "";
      const status = (parts[4] ?? "M").charAt(0) as ChangedFile["status"];
      if (status === "R" || status === "C") {
        const previousPath = rawFields[index++] ?? "";
        files.push({
          path: rawFields[index++] ?? "",
          previousPath,
          status,
          additions: 0,
          deletions: 0,
          binary: false,
          blobOid,
        });
      } else {
        files.push({
          path: rawFields[index++] ?? "",
          status,
          additions: 0,
          deletions: 0,
          binary: false,
          blobOid,
        });
      }
    }
    const counts = numstat.toString("utf8").split("\0");
    let file = 0;
    for (let index = 0; index < counts.length - 1 && file < files.length; file += 1) {
      const [added = "0", deleted = "0", path = ""] = (counts[index++] ?? "").split("\t");
      // A rename's numstat line has an empty path, then the old and the new path.
      if (path === "") index += 2;
      const target = files[file];
      if (!target) break;
      target.binary = added === "-";
      target.additions = added === "-" ? 0 : Number(added);
      target.deletions = deleted === "-" ? 0 : Number(deleted);
    }
    return files;
  }

  #remember(object: RawObject): void {
    this.#objects.set(object.oid, object);
    this.#objectBytes += object.content.length;
    for (const [oid, old] of this.#objects) {
      if (this.#objectBytes <= OBJECT_CACHE_BYTES) break;
      this.#objects.delete(oid);
      this.#objectBytes -= old.content.length;
    }
  }
}
