/**
 * What `demo/widgets` gains for questions of ownership (who knows this code, what changed here): a
 * CODEOWNERS file with every kind of rule GitHub reads, and `src/parts`, a folder of 150 files (one
 * of them binary) written and then edited by many authors, Alice under both her emails among them.
 * Written as commits appended to main after the rest of its history, so the earlier commits, files
 * and blame of the demo are unchanged.
 */
import type { FastImportScript, ImportSignature } from "./fastImport.js";
import { gearPng } from "./pngImage.js";

/** Lets the demo world's version stamp change when this generator code changes. */
export const DEMO_OWNERSHIP_MODULE_URL = import.meta.url;

/** The folder of 150 files, and what is in it. */
export const DEMO_PARTS = {
  folder: "src/parts",
  /** Text files `part-001.ts` .. `part-139.ts`, of 4 to 63 lines. */
  partCount: 139,
  /** Text files `legacy-01.ts` .. `legacy-10.ts`: a CODEOWNERS rule with no owners covers them. */
  legacyCount: 10,
  /** The one binary file of the folder. */
  diagram: "src/parts/diagram.png",
  /** 150 entries in all. */
  entries: 150,
} as const;

/**
 * Where the CODEOWNERS file of `demo/widgets` is: the root, the second place GitHub looks (a
 * `.github` folder would change the root listing other tests read).
 */
export const DEMO_CODEOWNERS_PATH = "CODEOWNERS";

/**
 * The CODEOWNERS of `demo/widgets`: a catch-all, an extension, an anchored folder, an unanchored
 * folder, a rule with no owners, a `docs/*` rule, a `**` rule, an escaped `#`, an e-mail and a team
 * owner; and two lines GitHub cannot parse (an owner without `@`, a `!` negation), which it skips.
 */
export const DEMO_CODEOWNERS = [
  "# Who reviews what in widgets. The last matching rule wins.",
  "*                      @demo/maintainers",
  "*.md                   @carol",
  "/src/                  @alice @bob",
  "parts/                 @demo/parts-team dave@widgets.example",
  "/src/parts/legacy-*",
  "docs/*                 @carol @erin",
  "**/util                @dave",
  "/scripts/build.sh      @erin",
  "\\#notes.txt            @alice",
  "data/wide.txt          bob",
  "!src/parts/part-001.ts @bob",
  "",
].join("\n");

/** A file name of the folder by number (1-based): `part-007.ts`, `legacy-03.ts`. */
export function partPath(index: number): string {
  return `${DEMO_PARTS.folder}/part-${String(index).padStart(3, "0")}.ts`;
}
function legacyPath(index: number): string {
  return `${DEMO_PARTS.folder}/legacy-${String(index).padStart(2, "0")}.ts`;
}

/** The lines of part `index` as first written: 4 to 63 lines, sizes spread by a fixed rule. */
function partLines(index: number): string[] {
  const count = 4 + ((index * 37) % 60);
  return Array.from({ length: count }, (_, line) => `export const part${index}_${line + 1} = ${line + 1};`);
}

function text(lines: readonly string[]): string {
  return `${lines.join("\n")}\n`;
}

/** Epoch seconds of a UTC calendar day at noon. */
function day(year: number, month: number, date: number): number {
  return Date.UTC(year, month - 1, date, 12) / 1000;
}

/** People the commits are signed by (those of the widgets history). */
export interface OwnershipPeople {
  alice: ImportSignatureSource;
  aliceOld: ImportSignatureSource;
  bob: ImportSignatureSource;
  carol: ImportSignatureSource;
  dave: ImportSignatureSource;
  erin: ImportSignatureSource;
  demo: ImportSignatureSource;
  other: ImportSignatureSource;
  mallory: ImportSignatureSource;
}

/** A person: name, email, timezone. */
export interface ImportSignatureSource {
  name: string;
  email: string;
  timezone: string;
}

function sign(person: ImportSignatureSource, time: number): ImportSignature {
  return { name: person.name, email: person.email, time, timezone: person.timezone };
}

/**
 * Appends the ownership commits to `ref` after commit mark `from`; returns the new tip's mark.
 * Twelve commits from 2025-04-25 to 2025-05-20: after the rest of main, and before the newest
 * push of demo/gadgets, so the order of `/repos` by push is unchanged.
 */
export function appendOwnershipHistory(
  script: FastImportScript,
  ref: string,
  from: number,
  people: OwnershipPeople,
): number {
  let tip = script.commit({
    ref,
    from,
    author: sign(people.carol, day(2025, 4, 25)),
    message: "Add CODEOWNERS\n",
    changes: [{ path: DEMO_CODEOWNERS_PATH, content: DEMO_CODEOWNERS }],
  });
  const contents = new Map<number, string[]>();
  for (let index = 1; index <= DEMO_PARTS.partCount; index += 1) contents.set(index, partLines(index));

  // Six authors each add a block of parts.
  const writers = [people.alice, people.bob, people.dave, people.erin, people.demo, people.other];
  const block = Math.ceil(DEMO_PARTS.partCount / writers.length);
  writers.forEach((person, number) => {
    const first = number * block + 1;
    const last = Math.min(DEMO_PARTS.partCount, first + block - 1);
    const changes = [];
    for (let index = first; index <= last; index += 1) {
      changes.push({ path: partPath(index), content: text(contents.get(index) ?? []) });
    }
    tip = script.commit({
      ref,
      from: tip,
      author: sign(person, day(2025, 4, 26 + number)),
      message: `parts: add parts ${first} to ${last}\n`,
      changes,
    });
  });

  /** One commit that rewrites some lines of the parts `chosen` picks. */
  const edit = (
    person: ImportSignatureSource,
    time: number,
    message: string,
    chosen: (index: number) => boolean,
    change: (lines: string[], index: number) => string[],
  ): void => {
    const changes = [];
    for (let index = 1; index <= DEMO_PARTS.partCount; index += 1) {
      if (!chosen(index)) continue;
      const lines = change([...(contents.get(index) ?? [])], index);
      contents.set(index, lines);
      changes.push({ path: partPath(index), content: text(lines) });
    }
    tip = script.commit({ ref, from: tip, author: sign(person, time), message, changes });
  };
  // Alice under her older email rewrites the first lines of every third part.
  edit(
    people.aliceOld,
    day(2025, 5, 5),
    "parts: name the first constants\n",
    (index) => index % 3 === 0,
    (lines, index) =>
      lines.map((line, at) => (at < 10 ? `export const named${index}_${at + 1} = ${at};` : line)),
  );
  // Mallory (no account) changes the last three lines of every fifth part.
  edit(
    people.mallory,
    day(2025, 5, 8),
    "parts: round the last values\n",
    (index) => index % 5 === 0,
    (lines, index) =>
      lines.map((line, at) => (at >= lines.length - 3 ? `export const rounded${index}_${at} = 0;` : line)),
  );
  // Carol appends to every seventh part.
  edit(
    people.carol,
    day(2025, 5, 12),
    "parts: add a checksum to some parts\n",
    (index) => index % 7 === 0,
    (lines, index) => [
      ...lines,
      `export const checksum${index} = ${index * 31};`,
      "export const checked = true;",
    ],
  );
  // Bob adds the legacy files (no owners by CODEOWNERS) and a binary diagram.
  const legacy = [];
  for (let index = 1; index <= DEMO_PARTS.legacyCount; index += 1) {
    legacy.push({
      path: legacyPath(index),
      content: text([`// legacy part ${index}`, `export const legacy${index} = true;`]),
    });
  }
  tip = script.commit({
    ref,
    from: tip,
    author: sign(people.bob, day(2025, 5, 15)),
    message: "parts: keep the legacy parts and a diagram\n",
    changes: [...legacy, { path: DEMO_PARTS.diagram, content: gearPng(48, 3) }],
  });
  // Dave changes one line of part 42, last of all.
  edit(
    people.dave,
    day(2025, 5, 20),
    "parts: tighten part 42\n",
    (index) => index === 42,
    (lines) => lines.map((line, at) => (at === 5 ? "export const tightened = 42;" : line)),
  );
  return tip;
}
