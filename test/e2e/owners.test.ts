import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { FormattedMessage } from "../../src/format/message.js";
import { userCodeOf } from "../../src/sandbox/harness.js";
import { DEMO_LOGIN, DEMO_TOKEN } from "../../src/sandbox/github/index.js";
import { DEMO_PARTS, partPath } from "../../src/sandbox/github/demoOwnership.js";
import { runGitChecked } from "../../src/sandbox/github/gitProcess.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  buttonId,
  commitOf,
  errorText,
  expectDeliveredWithoutPings,
  markupProblems,
  press,
  useWorld,
  type ShownMessage,
} from "./helpers.js";

/**
 * `/owners` and `/history` end to end, against figures computed with git itself on the stand-in's
 * repository. The bot's clock is 2025-06-01, a few weeks after the demo's ownership commits, so
 * "the last 90 days" holds some of them.
 */
const NOW = new Date("2025-06-01T12:00:00Z");
const world = useWorld({ now: () => NOW });

async function git(...args: string[]): Promise<string> {
  const gitDir = world().github.world.repository("demo", "widgets")!.gitDir;
  return (await runGitChecked(args, { gitDir })).toString("utf8");
}

/** Who a commit e-mail is, as GitHub links it: the account's login, else the git name. */
function personOf(email: string, name: string): string {
  return world().github.world.userForEmail(email)?.login ?? name;
}

/** Lines each person last changed in the files, from `git blame --line-porcelain`. */
async function blameCounts(paths: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const output = await git("blame", "--line-porcelain", "main", "--", path);
    let name = "";
    for (const line of output.split("\n")) {
      if (line.startsWith("author ")) name = line.slice("author ".length);
      if (line.startsWith("author-mail ")) {
        const person = personOf(line.slice("author-mail <".length, -1), name);
        counts.set(person, (counts.get(person) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/** The fewest people who last changed half of the lines. */
function busFactorOf(counts: Map<string, number>): number {
  const sorted = [...counts.values()].sort((a, b) => b - a);
  const total = sorted.reduce((sum, count) => sum + count, 0);
  let covered = 0;
  for (const [index, count] of sorted.entries()) {
    covered += count;
    if (covered * 2 >= total) return index + 1;
  }
  return sorted.length;
}

/** Author rows of an `/owners` answer: person (login or name) -> lines. */
function rowsOf(description: string): Map<string, number> {
  const rows = new Map<string, number>();
  for (const line of description.split("\n")) {
    const match = /^\d+\. (?:\*\*)?(.+?)(?:\*\*)? · ([\d,]+) lines? · /.exec(line);
    if (match) rows.set(match[1]!.replace(/\\/g, ""), Number(match[2]!.replace(/,/g, "")));
  }
  return rows;
}

/** Width and height of a PNG, after checking that its pixel data inflates to exactly that size. */
function decodePng(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  let bytesPerPixel = 0;
  const idat: Buffer[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const colorType = body[9];
      bytesPerPixel = colorType === 6 ? 4 : colorType === 2 ? 3 : colorType === 4 ? 2 : 1;
      expect(body[8]).toBe(8);
    }
    if (type === "IDAT") idat.push(body);
    offset += 12 + length;
  }
  // Each row: one filter byte, then its pixels.
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * bytesPerPixel));
  return { width, height };
}

function chartOf(message: FormattedMessage): { data: Buffer; description?: string } {
  const file = message.files.find((candidate) => candidate.name === "owners.png");
  expect(file).toBeDefined();
  return file!;
}

describe("/owners of a file", () => {
  const path = partPath(42);

  it("names its authors by the lines git blame gives them, the bus factor, recent commits and the CODEOWNERS rule", async () => {
    const record = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const expected = await blameCounts([path]);
    expect(rowsOf(embed.description!)).toEqual(expected);
    const total = [...expected.values()].reduce((sum, count) => sum + count, 0);
    expect(embed.description).toContain(`(${total.toLocaleString("en-US")} lines)`);
    expect(embed.description).toContain(`**Bus factor: ${busFactorOf(expected)}**`);
    // Commits of the last 90 days by person, as git log counts them.
    const since = new Date(NOW.getTime() - 90 * 86_400_000).toISOString();
    const recent = new Map<string, number>();
    for (const line of (await git("log", "--format=%aE%x09%aN", `--since=${since}`, "main", "--", path))
      .split("\n")
      .filter(Boolean)) {
      const [email = "", name = ""] = line.split("\t");
      const person = personOf(email, name);
      recent.set(person, (recent.get(person) ?? 0) + 1);
    }
    expect(recent.size).toBeGreaterThan(0);
    for (const [person, count] of recent) expect(embed.description).toContain(`**${person}** ${count}`);
    // The last matching rule of the root CODEOWNERS: line 5 `parts/` (line 4 `/src/` matches too);
    // the negation and the owner without `@` are skipped, as GitHub skips them.
    expect(embed.description).toContain("**CODEOWNERS** (`CODEOWNERS`, 2 lines GitHub skips):");
    expect(embed.description).toContain("line 5 `parts/` → `@demo/parts-team` `dave@widgets.example`");
    expect(embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), "demo/widgets", "main").slice(0, 7)}`,
    );
    expect(markupProblems(message)).toEqual([]);
    const chart = chartOf(message);
    const size = decodePng(chart.data);
    expect(size.width).toBe(800);
    expect(size.height).toBeGreaterThan(100);
    expect(embed.image?.url).toBe("attachment://owners.png");
    expect(chart.description).toMatch(
      /^Bar chart of the share of the \d+ lines of demo\/widgets src\/parts\/part-042\.ts/,
    );
    for (const person of expected.keys()) expect(chart.description).toContain(person);
  });

  it("folds Alice's two e-mails into one row, and says a rule with no owners leaves a file unowned", async () => {
    const third = partPath(3); // rewritten in part by Alice under her older e-mail
    const record = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: third },
    });
    const { embed } = answerOf(record);
    const rows = rowsOf(embed.description!);
    expect(rows.get("alice")).toBe((await blameCounts([third])).get("alice"));
    expect([...rows.keys()].filter((person) => /alice/i.test(person))).toEqual(["alice"]);
    const legacy = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: `${DEMO_PARTS.folder}/legacy-01.ts` },
    });
    expect(answerOf(legacy).embed.description).toContain(
      "line 6 `/src/parts/legacy-*` → names no owners: no owner",
    );
  });
});

describe("/owners of a folder", () => {
  it("blames the 100 largest text files, 10 a request, says what was left out, and a repeat costs nothing", async () => {
    const before = world().github.requests.length;
    const record = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: "src" },
    });
    expectDeliveredWithoutPings(record);
    const sent = world()
      .github.requests.slice(before)
      .filter((request) => request.api === "graphql")
      .map((request) => request.operationName);
    expect(sent.filter((name) => name === "OwnersTree")).toHaveLength(1);
    expect(sent.filter((name) => name === "OwnersBlame")).toHaveLength(10);
    const { embed } = answerOf(record);
    // The files, largest first, as git lists them with their sizes.
    const listing = (await git("ls-tree", "-r", "-l", "main", "--", "src"))
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [meta = "", file = ""] = line.split("\t");
        const [, type, , size] = meta.split(/\s+/);
        return { file, type, size: Number(size) };
      })
      .filter((entry) => entry.type === "blob");
    const text = listing.filter((entry) => !entry.file.endsWith(".png") && entry.size > 0);
    text.sort((a, b) => b.size - a.size || a.file.localeCompare(b.file, "en"));
    const read = text.slice(0, 100).map((entry) => entry.file);
    expect(embed.description).toContain(
      `**Counted:** 100 of ${listing.length} files, the largest text files first`,
    );
    const binary = listing.find((entry) => entry.file.endsWith(".png"))!.file;
    expect(embed.description).toContain(`1 binary (\`${binary}\`), ${text.length - 100} past the first 100`);
    const expected = await blameCounts(read);
    expect(rowsOf(embed.description!)).toEqual(
      new Map([...expected].sort((a, b) => b[1] - a[1]).slice(0, 10)),
    );
    expect(embed.description).toContain(`**Bus factor: ${busFactorOf(expected)}**`);
    expect(embed.footer?.text).toMatch(/ · 11 GitHub points$/);

    const again = world().github.requests.length;
    const repeat = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: "src" },
    });
    expect(answerOf(repeat).embed.description).toBe(embed.description);
    expect(answerOf(repeat).embed.footer?.text).toMatch(/no GitHub points spent$/);
    expect(
      world()
        .github.requests.slice(again)
        .filter((request) => request.operationName === "OwnersBlame"),
    ).toEqual([]);
  });

  it("refuses a folder whose blame the token's budget cannot pay, before sending any blame", async () => {
    world().github.setRateLimit(DEMO_TOKEN, { remaining: 6 });
    const before = world().github.requests.length;
    const text = await errorText(world(), {
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: DEMO_PARTS.folder, ref: "develop" },
    });
    expect(text).toMatch(
      /Reading the owners of these 100 files costs 10 GitHub points, more than the GitHub token in effect has left/,
    );
    expect(
      world()
        .github.requests.slice(before)
        .some((request) => request.operationName === "OwnersBlame"),
    ).toBe(false);
  });

  it("answers the owners of a private repository only to the asker, through the server's token", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "owners",
      options: { repo: "demo/secret" },
    });
    expect(text).toMatch(/is private/);
    const serverToken = "ghp_ownersTestServerToken00000000000000000";
    world().github.addToken(serverToken, DEMO_LOGIN);
    const { services } = world().running;
    await services.tokenAdmin.verifyAndStore(
      world().discord.guildId,
      serverToken,
      world().discord.users.admin.id,
    );
    const record = await world().run({ kind: "slash", name: "owners", options: { repo: "demo/secret" } });
    const seen = transcriptOf(record);
    expect(seen.isError, seen.text).toBe(false);
    expect(seen.messages.every((shown) => shown.ephemeral)).toBe(true);
    expect(seen.text).toContain("Owners of demo/secret");
    await services.tokenAdmin.clear(world().discord.guildId);
  });

  it("answers the owners of a private repository only to the asker, through their own sign-in", async () => {
    const handle = await world().send({ kind: "slash", name: "login", user: "member" });
    const shown = await handle.waitFor((record) => userCodeOf(record) !== null, { timeoutMs: 15_000 });
    world().github.oauth.approve(userCodeOf(shown)!, DEMO_LOGIN);
    await handle.waitFor((record) => userCodeOf(record) === null, { timeoutMs: 15_000 });
    try {
      const record = await world().run({
        kind: "slash",
        name: "owners",
        user: "member",
        options: { repo: "demo/secret", path: "plan.md" },
      });
      const seen = transcriptOf(record);
      expect(seen.isError, seen.text).toBe(false);
      expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
      expect(seen.text).toContain("Owners of demo/secret plan.md");
    } finally {
      await world().run({ kind: "slash", name: "logout", user: "member" });
    }
  });

  it("tells a submodule from a missing path, and sends nothing more for either", async () => {
    const before = world().github.requests.length;
    const submodule = await errorText(world(), {
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: "vendor/gearbox" },
    });
    expect(submodule).toContain("is a submodule");
    const missing = await errorText(world(), {
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: "no/such/path" },
    });
    expect(missing).toContain("was not found");
    expect(
      world()
        .github.requests.slice(before)
        .map((request) => request.operationName),
    ).toEqual(["OwnersTree", "OwnersTree"]);
  });

  it("says when a repository has no CODEOWNERS file", async () => {
    const record = await world().run({ kind: "slash", name: "owners", options: { repo: "demo/gadgets" } });
    expect(answerOf(record).embed.description).toContain(
      "**CODEOWNERS:** none (GitHub looks in `.github/`, the root and `docs/`): no one owns this by rule.",
    );
  });
});

describe("/history", () => {
  it("pages through a file's commits, 10 a page, pinned to the first page's commit, as git log lists them", async () => {
    const path = "src/engine.ts";
    const expected = (await git("log", "--format=%h", "main", "--", path)).split("\n").filter(Boolean);
    const record = await world().run({
      kind: "slash",
      name: "history",
      options: { repo: "demo/widgets", path },
    });
    expectDeliveredWithoutPings(record);
    const first = transcriptOf(record).messages[0]! as ShownMessage;
    const ids = (message: FormattedMessage): string[] =>
      [...message.embeds[0]!.description!.matchAll(/^\[`([0-9a-f]{7})`\]/gm)].map((match) => match[1]!);
    expect(ids(first.message)).toEqual(expected.slice(0, 10));
    expect(first.message.embeds[0]!.description).toContain(
      `${expected.length} commits touched \`${path}\` · page 1 of 5`,
    );
    expect(buttonId(first.message, /Previous/)).toBeNull();
    const second = await press(world(), first, /Next/);
    expect(ids(second.after.message)).toEqual(expected.slice(10, 20));
    expect(second.after.message.embeds[0]!.footer?.text).toContain(
      `pinned to ${commitOf(world(), "demo/widgets", "main").slice(0, 7)}`,
    );
    const back = await press(world(), second.after, /Previous/);
    expect(ids(back.after.message)).toEqual(expected.slice(0, 10));
  });

  it("shows +/− of each commit as git's numstat counts the whole commit", async () => {
    const path = partPath(42);
    const record = await world().run({
      kind: "slash",
      name: "history",
      options: { repo: "demo/widgets", path },
    });
    const description = answerOf(record).embed.description!;
    const lines = (await git("log", "--format=%x00%h", "--numstat", "main", "--", path))
      .split("\0")
      .filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    for (const entry of lines) {
      const id = entry.trim().split("\n")[0]!;
      const full = (await git("show", "--numstat", "--format=", id)).split("\n").filter(Boolean);
      const added = full.reduce((sum, line) => sum + Number(line.split("\t")[0]), 0);
      const deleted = full.reduce((sum, line) => sum + Number(line.split("\t")[1]), 0);
      expect(description).toMatch(
        new RegExp(
          `\\[\`${id}\`\\][^\\n]*\\n[^\\n]*\\+${added.toLocaleString("en-US")} −${deleted.toLocaleString("en-US")}`,
        ),
      );
    }
  });
});
