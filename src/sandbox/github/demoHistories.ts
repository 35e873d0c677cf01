// Over 300 lines: data: the demo world's commit histories, written out.
import {
  DEMO_FIXTURE_FILES,
  DEMO_ANONYMOUS_EMAIL,
  DEMO_LONG_MESSAGE_HEADLINE,
  DEMO_PATHS,
  DEMO_REFS,
  DEMO_USER_IDS,
} from "./demoConstants.js";
import { FastImportScript, type ImportSignature } from "./fastImport.js";
import { gearPng } from "./pngImage.js";

/** Lets the demo world's version stamp change when this generator code changes. */
export const DEMO_HISTORIES_MODULE_URL = import.meta.url;

/** A person who writes commits in the demo world. */
interface Person {
  name: string;
  email: string;
  timezone: string;
}

/** Authors of `demo/widgets`. Alice writes under two emails; Mallory has no account. */
export const WIDGETS_PEOPLE = {
  alice: { name: "Alice Liddell", email: "alice@widgets.example", timezone: "+0100" },
  aliceOld: { name: "Alice L.", email: "alice.liddell@oldmail.example", timezone: "+0000" },
  bob: { name: "Bob Builder", email: "bob@widgets.example", timezone: "-0700" },
  carol: { name: "Carol Danvers", email: "carol@widgets.example", timezone: "+0530" },
  dave: { name: "Dave Lister", email: "dave@widgets.example", timezone: "+0000" },
  erin: {
    name: "Erin Hunter",
    email: `${DEMO_USER_IDS.erin}+erin@users.noreply.github.com`,
    timezone: "+0900",
  },
  demo: { name: "Demo User", email: "demo-user@reposcout.example", timezone: "+0200" },
  other: { name: "Other User", email: "other-user@reposcout.example", timezone: "-0500" },
  dependabot: {
    name: "dependabot[bot]",
    email: `${DEMO_USER_IDS["dependabot[bot]"]}+dependabot[bot]@users.noreply.github.com`,
    timezone: "+0000",
  },
  mallory: { name: "Mallory Unmapped", email: DEMO_ANONYMOUS_EMAIL, timezone: "-0300" },
} as const satisfies Record<string, Person>;

/** Number of account authors and of anonymous authors of `demo/crowd`. */
export const CROWD_ACCOUNTS = 75;
export const CROWD_GUESTS = 10;

/** Login of the i-th (1-based) account author of `demo/crowd`, and its id. */
export function crowdLogin(index: number): string {
  return `crowd-${String(index).padStart(2, "0")}`;
}
export function crowdUserId(index: number): number {
  return 91000 + index;
}
/** The email under which crowd account `index` commits (crowd-02 also uses a second one). */
export function crowdEmail(index: number): string {
  return `${crowdLogin(index)}@crowd.example`;
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same world everywhere. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Epoch seconds of a UTC calendar time. */
function utc(year: number, month: number, day: number, hour = 12, minute = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute) / 1000;
}

function sign(person: Person, time: number): ImportSignature {
  return { name: person.name, email: person.email, time, timezone: person.timezone };
}

// ---------------------------------------------------------------------------------------------
// demo/widgets

const ENGINE_HEADER = [
  "/**",
  " * The widget engine: gears, ticks and the scheduler.",
  " * Generated for RepoScout's GitHub stand-in; every line has a history.",
  " */",
  "export interface Gear {",
  "  teeth: number;",
  "  ratio: number;",
  "}",
  "",
];

const WORDS = [
  "tuned",
  "faster",
  "safer",
  "clearer",
  "rounded",
  "checked",
  "shorter",
  "steadier",
  "fixed",
  "kinder",
];

/** `src/engine.ts` as a list of lines that commits edit, insert and delete. */
class EngineFile {
  lines: string[] = [...ENGINE_HEADER];
  #nextUnit = 1;

  constructor() {
    while (this.lines.length < 1990) this.lines.push(...this.#unit());
  }

  /** One exported function of ten lines. */
  #unit(): string[] {
    const id = this.#nextUnit++;
    return [
      `/** Gear ${id}: ${(id % 7) + 2} teeth per tick. */`,
      `export function turnGear${id}(gear: Gear, steps: number): number {`,
      `  const base = gear.teeth * ${id};`,
      `  let total${id} = 0;`,
      `  for (let step = 0; step < steps; step += 1) {`,
      `    total${id} += (base + step * ${(id % 13) + 1}) % ${89 + (id % 17)};`,
      `  }`,
      `  return Math.round(total${id} * gear.ratio);`,
      `}`,
      ``,
    ];
  }

  /** A commit's worth of changes: a few lines retuned, sometimes a function added or removed. */
  edit(random: () => number, revision: number): void {
    const edits = 3 + Math.floor(random() * 6);
    for (let count = 0; count < edits; count += 1) {
      const index = ENGINE_HEADER.length + Math.floor(random() * (this.lines.length - ENGINE_HEADER.length));
      const line = this.lines[index] ?? "";
      if (line.trim() === "") continue;
      const word = WORDS[Math.floor(random() * WORDS.length)] ?? "tuned";
      this.lines[index] = `${line.replace(/ \/\/ r\d+: \w+$/, "")} // r${revision}: ${word}`;
    }
    const boundary = (): number => {
      const units = Math.floor((this.lines.length - ENGINE_HEADER.length) / 10);
      return ENGINE_HEADER.length + Math.floor(random() * units) * 10;
    };
    const roll = random();
    if (roll < 0.25 && this.lines.length < 2040) this.lines.splice(boundary(), 0, ...this.#unit());
    else if (roll > 0.8 && this.lines.length > 1960) this.lines.splice(boundary(), 10);
  }

  text(): string {
    return `${this.lines.join("\n")}\n`;
  }
}

function wideText(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-=+_";
  const lines: string[] = [];
  for (let line = 1; line <= 3000; line += 1) {
    let text = `${String(line).padStart(4, "0")} `;
    while (text.length < 200) text += alphabet[(line * 7 + text.length) % alphabet.length];
    lines.push(text);
  }
  return `${lines.join("\n")}\n`;
}

function largeLogText(): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let line = 1; bytes < 650_000; line += 1) {
    const level = ["INFO", "WARN", "DEBUG", "ERROR"][line % 4] ?? "INFO";
    // An em dash and middle dots: multi-byte characters around the 512,000-byte cut.
    const text = `2024-05-${String((line % 28) + 1).padStart(2, "0")}T10:${String(line % 60).padStart(2, "0")}:00Z ${level} gear ${line} turned — ok ${"·".repeat(line % 9)} ratio=${(line % 97) / 10}`;
    lines.push(text);
    bytes += Buffer.byteLength(text) + 1;
  }
  return `${lines.join("\n")}\n`;
}

const HOSTILE_TEXT = [
  "# Hostile content",
  "",
  "This file tries to break out of formatting: ``` closes a fence,",
  "@everyone and @here try to ping, <@123> mentions a user, <@&456> a role, <#789> a channel.",
  "",
  "```js",
  'console.log("```"); // @everyone',
  "```",
  "",
  "~~~",
  "@everyone <@123> <@!123>",
  "~~~",
  "",
  "[a link](https://example.com/@everyone) **bold** _italic_ `code` ||spoiler|| > quote",
  "Zero width: a\u200bb; right-to-left: \u202egnirts\u202c; backslash: \\`; emoji: 🦄",
  "",
].join("\n");

const HOSTILE_MESSAGE =
  "docs: add hostile.md with ``` fences, @everyone and <@123>\n\n" +
  "Also pings @here, <@&456> and <#789>.\n```js\nalert('@everyone')\n```\n";

function longMessage(): string {
  const paragraph =
    "Long-running widgets used to hold the scheduler for a whole tick, which starved the short ones " +
    "and made the gear ratios drift under load. The scheduler now hands out slices and every widget " +
    "yields at the end of its slice, so the ratios stay put and the queue drains fairly. ";
  let body = "";
  let number = 1;
  while (`${DEMO_LONG_MESSAGE_HEADLINE}\n\n${body}`.length < 5000) {
    body += `${number}. ${paragraph}\n\n`;
    number += 1;
  }
  return `${DEMO_LONG_MESSAGE_HEADLINE}\n\n${body}`.slice(0, 5000);
}

function packageJson(typescript: string, vitest: string): string {
  return `${JSON.stringify(
    { name: "widgets", version: "1.0.0", private: true, devDependencies: { typescript, vitest } },
    null,
    2,
  )}\n`;
}

/** The whole history of `demo/widgets`. */
export function widgetsHistory(): FastImportScript {
  const script = new FastImportScript();
  const random = prng(20160110);
  const people = WIDGETS_PEOPLE;
  const main = "refs/heads/main";
  const engine = new EngineFile();

  const start = utc(2016, 1, 10, 9);
  const end = utc(2025, 6, 20, 17);
  const misc: Array<(time: number, parent: number) => number> = [];
  const steps = 49 + 17;
  const step = (end - start) / (steps + 1);
  let tip = 0;

  // The first commit: the skeleton of the project, with engine.ts at its first revision.
  tip = script.commit({
    ref: main,
    author: sign(people.alice, start),
    message: "Initial commit: the widget engine\n",
    changes: [
      { path: DEMO_PATHS.readme, content: "# widgets\n\nGears, ticks and a scheduler.\n" },
      { path: "package.json", content: packageJson("4.9.5", "0.34.0") },
      { path: ".gitignore", content: "node_modules/\ndist/\n" },
      { path: "LICENSE", content: "MIT License\n\nCopyright (c) 2016 The widgets authors\n" },
      { path: DEMO_PATHS.engine, content: engine.text() },
      {
        path: "src/lib/util/strings.ts",
        content: "export function shout(text: string): string {\n  return text.toUpperCase();\n}\n",
      },
      {
        path: "src/lib/util/numbers.ts",
        content:
          "export function clamp(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n",
      },
    ],
  });

  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.bob, time),
      message: "Add the widget logo\n",
      changes: [{ path: DEMO_PATHS.logo, content: gearPng(96, 1) }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.carol, time),
      message: "Add the guide, three folders deep\n",
      changes: [
        { path: "docs/guide/intro.md", content: "# Introduction\n\nWidgets turn gears.\n" },
        { path: DEMO_PATHS.nestedFile, content: "# Tuning\n\nTurn the ratio down when gears slip.\n" },
        { path: DEMO_PATHS.symlink, content: "guide/intro.md", mode: "120000" },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.mallory, time),
      message: "Fix typo in README\n",
      changes: [{ path: DEMO_PATHS.readme, content: "# widgets\n\nGears, ticks and one scheduler.\n" }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.dave, time),
      message: "Add a fixture of 3,000 lines of 200 columns\n",
      changes: [{ path: DEMO_PATHS.wide, content: wideText() }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.alice, time),
      message: HOSTILE_MESSAGE,
      changes: [{ path: DEMO_PATHS.hostile, content: HOSTILE_TEXT }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.dependabot, time),
      message: "Bump typescript from 4.9.5 to 5.0.2\n\nBumps typescript from 4.9.5 to 5.0.2.\n",
      changes: [{ path: "package.json", content: packageJson("5.0.2", "0.34.0") }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.erin, time),
      message: "Add the build script and an empty module\n",
      changes: [
        { path: DEMO_PATHS.script, content: "#!/bin/sh\nset -eu\nnpx tsc -p .\n", mode: "100755" },
        { path: DEMO_PATHS.emptyFile, content: "" },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.bob, time),
      message: "Vendor gearbox as a submodule\n",
      changes: [
        {
          path: ".gitmodules",
          content:
            '[submodule "vendor/gearbox"]\n\tpath = vendor/gearbox\n\turl = https://github.com/demo/gearbox.git\n',
        },
        { path: DEMO_PATHS.submodule, submodule: "8f5e1c7a9b2d4e6f8091a2b3c4d5e6f708192a3b" },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.carol, time),
      message: "Add a large log sample\n",
      changes: [{ path: DEMO_PATHS.large, content: largeLogText() }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.demo, time),
      message: "Show that names may hold spaces and accents\n",
      changes: [
        { path: DEMO_PATHS.spacedName, content: "A file whose name has a space.\n" },
        { path: DEMO_PATHS.unicodeName, content: "Ünïcödé everywhere: ✓\n" },
      ],
    }),
  );
  misc.push((time, from) => {
    // A feature branch of two commits, merged with a merge commit.
    const branch = `refs/heads/${DEMO_REFS.featureBranch}`;
    const first = "export interface Pair {\n  left: number;\n  right: number;\n}\n";
    const second = `${first}\nexport function ratio(pair: Pair): number {\n  return pair.left / pair.right;\n}\n`;
    const one = script.commit({
      ref: branch,
      from,
      author: sign(people.alice, time - 3 * 86400),
      message: "Add the gears module\n",
      changes: [{ path: DEMO_PATHS.merged, content: first }],
    });
    const two = script.commit({
      ref: branch,
      from: one,
      author: sign(people.bob, time - 2 * 86400),
      message: "Gears: add a ratio helper\n",
      changes: [{ path: DEMO_PATHS.merged, content: second }],
    });
    return script.commit({
      ref: main,
      from,
      merge: [two],
      author: sign(people.alice, time),
      message: `Merge branch '${DEMO_REFS.featureBranch}'\n`,
      changes: [{ path: DEMO_PATHS.merged, content: second }],
    });
  });
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.bob, time),
      message: "Update the logo\n",
      changes: [{ path: DEMO_PATHS.logo, content: gearPng(96, 2) }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.dependabot, time),
      message: "Bump vitest from 0.34.0 to 1.2.0\n",
      changes: [{ path: "package.json", content: packageJson("5.0.2", "1.2.0") }],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.demo, time),
      message: "Describe the demo world in the README\n",
      changes: [
        {
          path: DEMO_PATHS.readme,
          content:
            "# widgets\n\nGears, ticks and one scheduler.\n\n## Usage\n\n```ts\nimport { turnGear1 } from './src/engine.js';\n```\n",
        },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.alice, time),
      message: "strings: whisper as well as shout\n",
      changes: [
        {
          path: "src/lib/util/strings.ts",
          content:
            "export function shout(text: string): string {\n  return text.toUpperCase();\n}\n\nexport function whisper(text: string): string {\n  return text.toLowerCase();\n}\n",
        },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.dave, time),
      message: "numbers: clamp NaN to the low bound\n",
      changes: [
        {
          path: "src/lib/util/numbers.ts",
          content:
            "export function clamp(value: number, low: number, high: number): number {\n  if (Number.isNaN(value)) return low;\n  return Math.min(high, Math.max(low, value));\n}\n",
        },
      ],
    }),
  );
  misc.push((time, from) =>
    script.commit({
      ref: main,
      from,
      author: sign(people.other, time),
      message: "Note where other-user helped\n",
      changes: [{ path: "docs/guide/thanks.md", content: "Thanks to other-user for the review.\n" }],
    }),
  );

  const engineAuthors: Person[] = [
    people.alice,
    people.alice,
    people.aliceOld,
    people.bob,
    people.bob,
    people.carol,
    people.carol,
    people.dave,
    people.erin,
    people.demo,
    people.mallory,
  ];
  let revision = 1;
  let miscIndex = 0;
  for (let slot = 1; slot <= steps; slot += 1) {
    const time = Math.round(start + slot * step + (random() - 0.5) * step * 0.5);
    const miscDue =
      miscIndex < misc.length && slot >= Math.round(((miscIndex + 1) * steps) / (misc.length + 1));
    if (miscDue) {
      const next = misc[miscIndex];
      miscIndex += 1;
      if (next) tip = next(time, tip);
    } else {
      revision += 1;
      engine.edit(random, revision);
      const author = engineAuthors[Math.floor(random() * engineAuthors.length)] ?? people.alice;
      const message = revision === 26 ? longMessage() : `engine: retune gears (revision ${revision})\n`;
      tip = script.commit({
        ref: main,
        from: tip,
        author: sign(author, time),
        message,
        changes: [{ path: DEMO_PATHS.engine, content: engine.text() }],
      });
    }
    if (slot === 30) script.reset(`refs/tags/${DEMO_REFS.lightweightTag}`, tip);
    if (slot === 50) {
      script.annotatedTag(
        DEMO_REFS.annotatedTag,
        tip,
        sign(people.alice, time + 3600),
        "Widgets 1.0.0\n\nThe first stable engine.\n",
      );
    }
  }

  // `develop` is one commit ahead of main.
  engine.edit(random, revision + 1);
  script.commit({
    ref: `refs/heads/${DEMO_REFS.develop}`,
    from: tip,
    author: sign(people.carol, end + 86400),
    message: "WIP: faster ticks\n",
    changes: [{ path: DEMO_PATHS.engine, content: engine.text() }],
  });
  pullRequestHeads(script, tip, end);
  return script;
}

/**
 * The heads of the pull requests of `demo/widgets` (demoIssues.ts), each off main's tip (`tip`), so
 * main and its history do not change.
 */
function pullRequestHeads(script: FastImportScript, tip: number, end: number): void {
  const people = WIDGETS_PEOPLE;
  script.commit({
    ref: `refs/heads/${DEMO_REFS.fixBranch}`,
    from: tip,
    author: sign(people.bob, end + 2 * 86400),
    message: "Fix tick drift\n\nKeep the remainder of each tick instead of rounding it away.\n",
    changes: [
      {
        path: "src/lib/ticks.ts",
        content:
          "export function nextTick(now: number, period: number, remainder: number): number {\n  return now + period - remainder;\n}\n",
      },
      {
        path: "src/lib/util/numbers.ts",
        content:
          "export function clamp(value: number, low: number, high: number): number {\n  if (Number.isNaN(value)) return low;\n  return Math.min(high, Math.max(low, value));\n}\n\nexport function remainder(value: number, period: number): number {\n  return value % period;\n}\n",
      },
    ],
  });
  script.commit({
    ref: `refs/heads/${DEMO_REFS.spinBranch}`,
    from: tip,
    author: sign(people.dave, end + 3 * 86400),
    message: "Spin the gears backwards\n",
    changes: [{ path: DEMO_PATHS.readme, content: "# widgets\n\nGears that spin backwards.\n" }],
  });
  // One commit, three authors (two by trailer: one with an account, one without), 301 files.
  script.commit({
    ref: `refs/heads/${DEMO_REFS.fixturesBranch}`,
    from: tip,
    author: sign(people.carol, end + 4 * 86400),
    message:
      "Add a fixture for every gear case\n\nOne file a case, so a failing case names its file.\n\n" +
      `Co-authored-by: ${people.alice.name} <${people.alice.email}>\n` +
      `Co-authored-by: ${people.mallory.name} <${people.mallory.email}>\n`,
    changes: Array.from({ length: DEMO_FIXTURE_FILES }, (_, index) => ({
      path: `fixtures/case-${String(index + 1).padStart(3, "0")}.txt`,
      content: `case ${index + 1}\nteeth ${(index % 24) + 8}\n`,
    })),
  });
}

// ---------------------------------------------------------------------------------------------
// demo/crowd: 75 account authors with 75, 74, ... 1 commits, and 10 guests with 3 commits each.

/** The whole history of `demo/crowd`. */
export function crowdHistory(): FastImportScript {
  const script = new FastImportScript();
  const random = prng(20190101);
  const queue: Array<{ person: Person; index: number }> = [];
  for (let index = 1; index <= CROWD_ACCOUNTS; index += 1) {
    for (let count = 0; count < CROWD_ACCOUNTS + 1 - index; count += 1) {
      // crowd-01 commits half the time from GitHub's noreply address: both fold into one login.
      const email =
        index === 1 && count % 2 === 1
          ? `${crowdUserId(1)}+${crowdLogin(1)}@users.noreply.github.com`
          : index === 2 && count % 2 === 1
            ? `${crowdLogin(2)}@second.example`
            : crowdEmail(index);
      queue.push({ person: { name: `Crowd Member ${index}`, email, timezone: "+0000" }, index });
    }
  }
  for (let guest = 1; guest <= CROWD_GUESTS; guest += 1) {
    for (let count = 0; count < 3; count += 1) {
      const name = `Guest ${String(guest).padStart(2, "0")}`;
      queue.push({
        person: { name, email: `guest-${guest}@guests.example`, timezone: "-0100" },
        index: 100 + guest,
      });
    }
  }
  // Shuffle deterministically so authors interleave.
  for (let index = queue.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    const swap = queue[index];
    queue[index] = queue[other] as (typeof queue)[number];
    if (swap) queue[other] = swap;
  }
  let tip: number | undefined;
  let time = utc(2019, 1, 1, 8);
  queue.forEach((entry, number) => {
    time += 3600 + Math.floor(random() * 7200);
    tip = script.commit({
      ref: "refs/heads/main",
      ...(tip === undefined ? {} : { from: tip }),
      author: sign(entry.person, time),
      message: `Log entry ${number + 1}\n`,
      changes: [{ path: `log/${entry.index}.txt`, content: `entry ${number + 1}\n` }],
    });
  });
  return script;
}

// ---------------------------------------------------------------------------------------------
// The small repositories.

/** A short linear history: each step is [person, ISO date, message, files]. */
export function smallHistory(
  steps: ReadonlyArray<readonly [Person, number, string, Record<string, string>]>,
): FastImportScript {
  const script = new FastImportScript();
  let tip: number | undefined;
  for (const [person, time, message, files] of steps) {
    tip = script.commit({
      ref: "refs/heads/main",
      ...(tip === undefined ? {} : { from: tip }),
      author: sign(person, time),
      message: `${message}\n`,
      changes: Object.entries(files).map(([path, content]) => ({ path, content })),
    });
  }
  return script;
}

/** The histories of the small repositories, by `owner/name`. */
export function smallHistories(): Record<string, FastImportScript> {
  const p = WIDGETS_PEOPLE;
  return {
    "demo/gadgets": smallHistory([
      [
        p.alice,
        utc(2023, 11, 2),
        "Start gadgets",
        { "README.md": "# gadgets\n", "src/index.ts": "export const gadgets = [];\n" },
      ],
      [p.bob, utc(2024, 3, 14), "Add a gadget", { "src/index.ts": "export const gadgets = ['sprocket'];\n" }],
      [p.demo, utc(2025, 5, 28), "Describe gadgets", { "README.md": "# gadgets\n\nSmall things.\n" }],
    ]),
    "demo/sprockets": smallHistory([
      [p.carol, utc(2021, 2, 1), "Start sprockets", { "README.md": "# sprockets\n" }],
      [p.dave, utc(2021, 8, 9), "Add teeth", { "teeth.txt": "24\n" }],
    ]),
    "demo/secret": smallHistory([
      [
        p.demo,
        utc(2024, 2, 10),
        "Start the secret project",
        { "SECRET.md": "# The secret\n\nOnly members see this.\n" },
      ],
      [p.alice, utc(2024, 9, 3), "Launch plan", { "plan.md": "Launch on a Tuesday.\n" }],
    ]),
    "demo/huge-history": smallHistory([
      [
        p.bob,
        utc(2022, 4, 1),
        "Pretend to be huge",
        { "README.md": "# huge-history\n\nToo large to count.\n" },
      ],
      [p.carol, utc(2022, 6, 1), "Still huge", { "notes.txt": "many commits\n" }],
    ]),
    "demo-user/dotfiles": smallHistory([
      [p.demo, utc(2020, 1, 5), "Add shell settings", { ".bashrc": "export EDITOR=vi\n" }],
      [p.demo, utc(2020, 7, 19), "Add git settings", { ".gitconfig": "[core]\n\teditor = vi\n" }],
    ]),
    "demo-user/playground": smallHistory([
      [p.demo, utc(2025, 1, 4), "Hello", { "hello.ts": "console.log('hello');\n" }],
      [p.demo, utc(2025, 2, 8), "Hello again", { "hello.ts": "console.log('hello again');\n" }],
      [p.other, utc(2025, 3, 9), "Say hi", { "hi.ts": "console.log('hi');\n" }],
    ]),
    "demo-user/notes": smallHistory([
      [p.demo, utc(2023, 10, 1), "Private notes", { "notes.md": "# Notes\n" }],
    ]),
    // One template for every kata of alice's (they share one git directory, see demoWorld.ts).
    "alice/kata-01": smallHistory([
      [p.alice, utc(2023, 1, 9), "Start from the kata template", { "README.md": "# kata\n\nPractice.\n" }],
      [p.alice, utc(2023, 1, 10), "Add a first attempt", { "kata.ts": "export const attempt = 1;\n" }],
    ]),
    "other-user/experiments": smallHistory([
      [p.other, utc(2024, 6, 6), "Try things", { "try.ts": "export {};\n" }],
      [p.other, utc(2024, 6, 7), "Try more things", { "try.ts": "export const more = true;\n" }],
    ]),
    "other-user/diary": smallHistory([
      [
        p.other,
        utc(2025, 4, 1),
        "Dear diary",
        { "DIARY.md": "# Diary\n\nOnly other-user can read this, and whoever signs in as them.\n" },
      ],
    ]),
  };
}
