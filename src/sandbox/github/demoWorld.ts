// Over 300 lines: the demo world's owners and repositories are data, listed here so /demo and the tests read one table.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEMO_APPS,
  DEMO_CONSTANTS_MODULE_URL,
  DEMO_KATA_OWNER,
  DEMO_LOGIN,
  DEMO_ORGANIZATION,
  DEMO_ORGANIZATION_ID,
  DEMO_PATHS,
  DEMO_REFS,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  DEMO_USER_IDS,
  OTHER_LOGIN,
  OTHER_TOKEN,
} from "./demoConstants.js";
import {
  CROWD_ACCOUNTS,
  DEMO_HISTORIES_MODULE_URL,
  WIDGETS_PEOPLE,
  crowdEmail,
  crowdHistory,
  crowdLogin,
  crowdUserId,
  smallHistories,
  widgetsHistory,
} from "./demoHistories.js";
import {
  FAST_IMPORT_MODULE_URL,
  initBareRepository,
  runFastImport,
  type FastImportScript,
} from "./fastImport.js";
import { demoIssuesByRepository } from "./demoIssues.js";
import type { GitOptions } from "./gitProcess.js";
import { PNG_IMAGE_MODULE_URL } from "./pngImage.js";
import type { WorldDefinition, WorldRepository } from "./world.js";

/** Bump when the layout of the data folder changes in a way the sources do not show. */
const LAYOUT_VERSION = "1";
const STAMP_FILE = "STAMP";
const FOLDER_PREFIX = "github-demo-";

/** Where the demo world lives when no data folder is given. */
export function defaultDemoDataDir(): string {
  return join(tmpdir(), "reposcout-github-standin");
}

/** The generated demo world: its definition and where its repositories are. */
export interface DemoWorld {
  definition: WorldDefinition;
  /** The folder holding this version of the world (`<dataDir>/github-demo-<stamp>`). */
  root: string;
  /** True when this call generated it (false: reused from an earlier run). */
  generated: boolean;
  stamp: string;
}

interface DemoRepositorySpec {
  owner: string;
  name: string;
  id: number;
  description: string;
  /** What it is in the world for (the sandbox's `/demo` lists it). */
  note: string;
  isPrivate?: boolean;
  contributorsTooLarge?: boolean;
  collaborators?: string[];
  /** Lives in the git directory of this repository of the same owner (made from one template). */
  sharesGitDirWith?: string;
  pushedAt?: string;
}

const W = DEMO_PATHS;

/** How many practice repositories `alice` has: more than a page of `/repos` (10). */
export const DEMO_KATA_COUNT = 24;

/**
 * Alice's katas: repositories made from one template, so they share one git directory (one
 * fast-import for all of them: the world stays quick to generate), each pushed on its own day.
 */
function kataSpecs(): DemoRepositorySpec[] {
  const topics = ["bowling", "roman numerals", "word wrap", "game of life", "bank OCR", "mars rover"];
  return Array.from({ length: DEMO_KATA_COUNT }, (_, offset) => {
    const index = offset + 1;
    return {
      owner: DEMO_KATA_OWNER,
      name: `kata-${String(index).padStart(2, "0")}`,
      id: 700100 + index,
      description: `Kata ${index}: ${topics[offset % topics.length]}.`,
      note: "practice repositories made from one template",
      ...(index === 1 ? {} : { sharesGitDirWith: "kata-01" }),
      pushedAt: new Date(Date.UTC(2023, 1, 1) + index * 9 * 86_400_000).toISOString(),
    };
  });
}

const REPOSITORY_SPECS: DemoRepositorySpec[] = [
  {
    ...split(DEMO_REPOSITORIES.widgets),
    id: 700001,
    description: "Gears, ticks and one scheduler.",
    note:
      `the rich one, ten years of history: blame ${W.engine} (2,000 lines, 50 commits); a PNG ` +
      `(${W.logo}), a symlink (${W.symlink}), a submodule (${W.submodule}), hostile markdown ` +
      `(${W.hostile}), a file past GitHub's text cut (${W.large}); branches ${DEMO_REFS.develop} and ` +
      `${DEMO_REFS.featureBranch}, tags ${DEMO_REFS.annotatedTag} (annotated) and ${DEMO_REFS.lightweightTag}`,
  },
  {
    ...split(DEMO_REPOSITORIES.gadgets),
    id: 700002,
    description: "Small things.",
    note: "a small repository",
  },
  {
    ...split(DEMO_REPOSITORIES.sprockets),
    id: 700003,
    description: "Teeth.",
    note: "a small repository, last pushed years ago",
  },
  {
    ...split(DEMO_REPOSITORIES.empty),
    id: 700004,
    description: "Nothing here yet.",
    note: "no commits at all",
  },
  {
    ...split(DEMO_REPOSITORIES.crowd),
    id: 700005,
    description: "Many hands.",
    note: "75 account authors and 10 anonymous ones: /contributors spans three pages",
  },
  {
    ...split(DEMO_REPOSITORIES.secret),
    id: 700006,
    description: "Members only.",
    note: "members of demo see it, other-user does not",
    isPrivate: true,
  },
  {
    ...split(DEMO_REPOSITORIES.hugeHistory),
    id: 700007,
    description: "GitHub will not count its contributors.",
    note: "GitHub answers 403 for its contributors",
    contributorsTooLarge: true,
  },
  {
    ...split(DEMO_REPOSITORIES.dotfiles),
    id: 700011,
    description: "Shell and git settings.",
    note: "a user's repository",
  },
  {
    ...split(DEMO_REPOSITORIES.playground),
    id: 700012,
    description: "Trying things.",
    note: "a user's repository, shared with another",
    collaborators: [OTHER_LOGIN],
  },
  {
    ...split(DEMO_REPOSITORIES.notes),
    id: 700013,
    description: "Private notes.",
    note: "only its owner sees it",
    isPrivate: true,
  },
  {
    ...split(DEMO_REPOSITORIES.experiments),
    id: 700021,
    description: "Other user's experiments.",
    note: "a public repository of other-user",
  },
  {
    ...split(DEMO_REPOSITORIES.diary),
    id: 700022,
    description: "Only other-user sees this.",
    note: "private: only other-user sees it (sign in as other-user to read it)",
    isPrivate: true,
  },
  ...kataSpecs(),
];

function split(nameWithOwner: string): { owner: string; name: string } {
  const [owner = "", name = ""] = nameWithOwner.split("/");
  return { owner, name };
}

function gitDirOf(root: string, spec: { owner: string; name: string }): string {
  return join(root, "repos", spec.owner, `${spec.name}.git`);
}

/** The definition of the demo world whose repositories live under `root`. */
export function demoWorldDefinition(root: string): WorldDefinition {
  const p = WIDGETS_PEOPLE;
  const crowd = Array.from({ length: CROWD_ACCOUNTS }, (_, offset) => {
    const index = offset + 1;
    const emails = [crowdEmail(index)];
    if (index === 2) emails.push(`${crowdLogin(2)}@second.example`);
    return { login: crowdLogin(index), id: crowdUserId(index), name: `Crowd Member ${index}`, emails };
  });
  const issues = demoIssuesByRepository();
  const repositories: WorldRepository[] = REPOSITORY_SPECS.map((spec) => ({
    owner: spec.owner,
    name: spec.name,
    id: spec.id,
    gitDir: gitDirOf(root, { owner: spec.owner, name: spec.sharesGitDirWith ?? spec.name }),
    description: spec.description,
    note: spec.note,
    isPrivate: spec.isPrivate ?? false,
    ...(spec.contributorsTooLarge ? { contributorsTooLarge: true } : {}),
    ...(spec.collaborators ? { collaborators: spec.collaborators } : {}),
    ...(spec.pushedAt ? { pushedAt: spec.pushedAt } : {}),
    ...issues[`${spec.owner}/${spec.name}`],
  }));
  return {
    users: [
      { login: DEMO_LOGIN, id: DEMO_USER_IDS["demo-user"], name: "Demo User", emails: [p.demo.email] },
      { login: OTHER_LOGIN, id: DEMO_USER_IDS["other-user"], name: "Other User", emails: [p.other.email] },
      {
        login: "alice",
        id: DEMO_USER_IDS.alice,
        name: "Alice Liddell",
        emails: [p.alice.email, p.aliceOld.email],
      },
      { login: "bob", id: DEMO_USER_IDS.bob, name: "Bob Builder", emails: [p.bob.email] },
      { login: "carol", id: DEMO_USER_IDS.carol, name: "Carol Danvers", emails: [p.carol.email] },
      { login: "dave", id: DEMO_USER_IDS.dave, name: "Dave Lister", emails: [p.dave.email], siteAdmin: true },
      // Erin commits from GitHub's noreply address only, which maps to her account by itself.
      { login: "erin", id: DEMO_USER_IDS.erin, name: "Erin Hunter" },
      { login: "dependabot[bot]", id: DEMO_USER_IDS["dependabot[bot]"], type: "Bot", name: null },
      ...crowd,
    ],
    organizations: [
      {
        login: DEMO_ORGANIZATION,
        id: DEMO_ORGANIZATION_ID,
        name: "Demo Organization",
        members: [DEMO_LOGIN, "alice", "bob"],
      },
    ],
    repositories,
    tokens: { [DEMO_TOKEN]: DEMO_LOGIN, [OTHER_TOKEN]: OTHER_LOGIN },
    apps: [
      { kind: "oauth-app", ...DEMO_APPS.oauthApp },
      { kind: "github-app", ...DEMO_APPS.githubApp, expiringTokens: true },
      { kind: "oauth-app", ...DEMO_APPS.noDeviceFlow, deviceFlow: false },
    ],
  };
}

let stampPromise: Promise<string> | null = null;

/**
 * The version stamp of the generator: a hash of its own sources, so any change to how the world is
 * generated lands in a new folder instead of reusing a stale one.
 */
export function demoWorldStamp(): Promise<string> {
  stampPromise ??= (async () => {
    const hash = createHash("sha256").update(LAYOUT_VERSION);
    for (const url of [
      import.meta.url,
      DEMO_CONSTANTS_MODULE_URL,
      DEMO_HISTORIES_MODULE_URL,
      FAST_IMPORT_MODULE_URL,
      PNG_IMAGE_MODULE_URL,
    ]) {
      hash.update(await readFile(fileURLToPath(url)));
    }
    return hash.digest("hex").slice(0, 16);
  })();
  return stampPromise;
}

async function isComplete(root: string, stamp: string): Promise<boolean> {
  try {
    return (await readFile(join(root, STAMP_FILE), "utf8")).trim() === stamp;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes every repository of the demo world under `root` (one fast-import per repository). */
async function generate(root: string, git: GitOptions): Promise<void> {
  const histories: Record<string, FastImportScript | null> = {
    [DEMO_REPOSITORIES.widgets]: widgetsHistory(),
    [DEMO_REPOSITORIES.crowd]: crowdHistory(),
    [DEMO_REPOSITORIES.empty]: null,
    ...smallHistories(),
  };
  await Promise.all(
    REPOSITORY_SPECS.filter((spec) => spec.sharesGitDirWith === undefined).map(async (spec) => {
      const gitDir = gitDirOf(root, spec);
      await mkdir(join(gitDir, ".."), { recursive: true });
      await initBareRepository(gitDir, "main", git);
      const history = histories[`${spec.owner}/${spec.name}`];
      if (history === undefined) throw new Error(`no history for ${spec.owner}/${spec.name}`);
      if (history) await runFastImport(gitDir, history, git);
    }),
  );
}

const inProcess = new Map<string, Promise<DemoWorld>>();

/**
 * Returns the demo world, generating it on first use into `<dataDir>/github-demo-<stamp>` and
 * reusing it afterwards. Safe against concurrent generators (test workers): each generates into
 * its own temporary folder and renames it into place; the loser of the race uses the winner's.
 */
export function ensureDemoWorld(options: { dataDir?: string; git?: GitOptions } = {}): Promise<DemoWorld> {
  // Absolute: git runs inside each repository, where a relative folder would mean another place.
  const dataDir = resolve(options.dataDir ?? defaultDemoDataDir());
  let pending = inProcess.get(dataDir);
  if (!pending) {
    pending = ensure(dataDir, options.git ?? {});
    inProcess.set(dataDir, pending);
    pending.catch(() => inProcess.delete(dataDir));
  }
  return pending;
}

async function ensure(dataDir: string, git: GitOptions): Promise<DemoWorld> {
  const stamp = await demoWorldStamp();
  const root = join(dataDir, `${FOLDER_PREFIX}${stamp}`);
  if (await isComplete(root, stamp))
    return { definition: demoWorldDefinition(root), root, generated: false, stamp };
  await mkdir(dataDir, { recursive: true });
  const temporary = `${root}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await generate(temporary, git);
    await writeFile(join(temporary, STAMP_FILE), `${stamp}\n`);
    try {
      await rename(temporary, root);
    } catch (error) {
      // Another generator got there first: its folder is complete (it was renamed whole).
      if (!(await isComplete(root, stamp))) {
        if (await exists(root))
          throw new Error(`${root} exists but is not a demo world of stamp ${stamp}`, { cause: error });
        throw error;
      }
      return { definition: demoWorldDefinition(root), root, generated: false, stamp };
    }
    return { definition: demoWorldDefinition(root), root, generated: true, stamp };
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}
