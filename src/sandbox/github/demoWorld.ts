import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEMO_CONSTANTS_MODULE_URL,
  DEMO_LOGIN,
  DEMO_ORGANIZATION,
  DEMO_ORGANIZATION_ID,
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
  isPrivate?: boolean;
  contributorsTooLarge?: boolean;
  collaborators?: string[];
}

const REPOSITORY_SPECS: DemoRepositorySpec[] = [
  { ...split(DEMO_REPOSITORIES.widgets), id: 700001, description: "Gears, ticks and one scheduler." },
  { ...split(DEMO_REPOSITORIES.gadgets), id: 700002, description: "Small things." },
  { ...split(DEMO_REPOSITORIES.sprockets), id: 700003, description: "Teeth." },
  { ...split(DEMO_REPOSITORIES.empty), id: 700004, description: "Nothing here yet." },
  { ...split(DEMO_REPOSITORIES.crowd), id: 700005, description: "Many hands." },
  { ...split(DEMO_REPOSITORIES.secret), id: 700006, description: "Members only.", isPrivate: true },
  {
    ...split(DEMO_REPOSITORIES.hugeHistory),
    id: 700007,
    description: "GitHub will not count its contributors.",
    contributorsTooLarge: true,
  },
  { ...split(DEMO_REPOSITORIES.dotfiles), id: 700011, description: "Shell and git settings." },
  {
    ...split(DEMO_REPOSITORIES.playground),
    id: 700012,
    description: "Trying things.",
    collaborators: [OTHER_LOGIN],
  },
  { ...split(DEMO_REPOSITORIES.notes), id: 700013, description: "Private notes.", isPrivate: true },
  { ...split(DEMO_REPOSITORIES.experiments), id: 700021, description: "Other user's experiments." },
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
  const repositories: WorldRepository[] = REPOSITORY_SPECS.map((spec) => ({
    owner: spec.owner,
    name: spec.name,
    id: spec.id,
    gitDir: gitDirOf(root, spec),
    description: spec.description,
    isPrivate: spec.isPrivate ?? false,
    ...(spec.contributorsTooLarge ? { contributorsTooLarge: true } : {}),
    ...(spec.collaborators ? { collaborators: spec.collaborators } : {}),
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
    REPOSITORY_SPECS.map(async (spec) => {
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
