import { describe, expect, it } from "vitest";
import { sandboxBanner } from "../../src/sandbox/chat.js";
import type { InteractionRecord } from "../../src/sandbox/discord/index.js";
import { DEMO_ISSUES } from "../../src/sandbox/github/demoConstants.js";
import { DEMO_PATHS, DEMO_REFS } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { useWorld } from "../e2e/helpers.js";

/**
 * The local GitHub's web pages (github.com's repository pages, simply drawn), and the sandbox as
 * `npm run sandbox` starts it (`htmlUrl: "self"`): every link of an answer opens a page of the
 * local GitHub, not of the real github.com.
 */

const world = useWorld({ github: { htmlUrl: "self" } });

async function page(path: string): Promise<{ status: number; html: string; location: string | null }> {
  const response = await fetch(`${world().github.webUrl}${path}`, { redirect: "manual" });
  return { status: response.status, html: await response.text(), location: response.headers.get("location") };
}

/** Every http(s) link a person can click in an interaction's messages: text, embeds, link buttons. */
function linksOf(record: InteractionRecord): string[] {
  const links = new Set<string>();
  for (const seen of transcriptOf(record).messages) {
    const message = seen.message;
    const texts = [
      message.content ?? "",
      ...message.embeds.flatMap((embed) => [
        embed.url ?? "",
        embed.description ?? "",
        embed.author?.url ?? "",
        ...(embed.fields ?? []).map((field) => field.value),
      ]),
      ...message.components.flatMap((row) =>
        row.components.map((button) => ("url" in button ? (button.url ?? "") : "")),
      ),
    ];
    for (const text of texts) for (const found of text.match(/https?:\/\/[^\s<>)]+/g) ?? []) links.add(found);
  }
  return [...links];
}

async function expectEveryLinkOpens(sandbox: SandboxWorld, record: InteractionRecord): Promise<string[]> {
  expect(transcriptOf(record).isError, transcriptOf(record).text).toBe(false);
  const links = linksOf(record);
  expect(links.length).toBeGreaterThan(0);
  for (const url of links) {
    expect(url.startsWith(`${sandbox.github.webUrl}/`), url).toBe(true);
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    await response.text();
  }
  return links;
}

describe("the local GitHub's web pages", () => {
  it("shows a file with an anchor on every line, its text escaped", async () => {
    const engine = await page(`/demo/widgets/blob/main/${DEMO_PATHS.engine}`);
    expect(engine.status).toBe(200);
    expect(engine.html).toContain('<tr id="L1"><td class="num"><a href="#L1">1</a>');
    expect(engine.html).toMatch(/<tr id="L2029">/);
    expect(engine.html).not.toMatch(/<tr id="L2030">/);
    const hostile = await page(`/demo/widgets/blob/main/${DEMO_PATHS.hostile}`);
    expect(hostile.html).toContain("&lt;@123&gt;");
    expect(hostile.html).not.toContain("<@123>");
  });

  it("reads a ref with slashes, a path with a space, and sends a folder asked as a file to its folder page", async () => {
    expect((await page(`/demo/widgets/blob/${DEMO_REFS.featureBranch}/${DEMO_PATHS.merged}`)).status).toBe(
      200,
    );
    expect((await page("/demo/widgets/blob/main/docs/with%20space.md")).status).toBe(200);
    const folder = await page("/demo/widgets/blob/main/src");
    expect(folder).toMatchObject({ status: 302, location: "/demo/widgets/tree/main/src" });
    const listing = await page("/demo/widgets/tree/main/src");
    expect(listing.html).toContain('<a href="/demo/widgets/blob/main/src/engine.ts">engine.ts</a>');
  });

  it("shows a commit: its headline, author and changed files", async () => {
    const commit = await page("/demo/widgets/commit/main");
    expect(commit.status).toBe(200);
    expect(commit.html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(commit.html).toMatch(/<h2>\d+ changed files?<\/h2>/);
  });

  it("shows an issue and a pull request, each under its own path; the other kind's path redirects", async () => {
    const pull = await page(`/demo/widgets/pull/${DEMO_ISSUES.openPull}`);
    expect(pull.status).toBe(200);
    expect(pull.html).toMatch(/wants to merge <code>[^<]+<\/code> into <code>main<\/code>/);
    expect((await page(`/demo/widgets/pull/${DEMO_ISSUES.openPull}/files`)).status).toBe(200);
    expect(await page(`/demo/widgets/issues/${DEMO_ISSUES.openPull}`)).toMatchObject({
      status: 302,
      location: `/demo/widgets/pull/${DEMO_ISSUES.openPull}`,
    });
    const issue = await page(`/demo/widgets/issues/${DEMO_ISSUES.open}`);
    expect(issue.status).toBe(200);
    expect(issue.html).toContain("Open");
    expect((await page(`/demo/widgets/issues/${DEMO_ISSUES.open}/files`)).status).toBe(404);
    expect((await page("/demo/widgets/issues/999")).status).toBe(404);
    expect((await page("/demo/secret/issues/1")).status).toBe(404);
  });

  it("answers 404 for a private repository (as to a visitor not signed in), and for what does not exist", async () => {
    expect((await page("/demo/secret")).status).toBe(404);
    expect((await page("/demo/secret/blob/main/SECRET.md")).status).toBe(404);
    expect((await page("/demo/no-such-repository")).status).toBe(404);
    expect((await page("/demo/widgets/blob/no-such-ref/README.md")).status).toBe(404);
    expect((await page("/demo/widgets/blob/main/no-such-file")).status).toBe(404);
  });

  it("leaves the API at the same host as it was", async () => {
    const response = await fetch(`${world().github.restUrl}/repos/demo/widgets/contributors`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.status).toBe(200);
  });
});

describe("the sandbox's links", () => {
  it("open on the local GitHub: blame, contents (a folder, a symbolic link), repositories and contributors", async () => {
    const answers = [
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "10-12" },
      }),
      await world().run({ kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "docs" } }),
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: "demo/widgets", path: DEMO_PATHS.symlink },
      }),
      await world().run({ kind: "slash", name: "repos", options: { owner: "demo" } }),
      await world().run({ kind: "slash", name: "contributors", options: { repo: "demo/widgets" } }),
    ];
    const links = [];
    for (const record of answers) links.push(...(await expectEveryLinkOpens(world(), record)));
    expect(links.some((url) => /\/blob\/[0-9a-f]{40}\/src\/engine\.ts#L10-L12$/.test(url))).toBe(true);
    expect(links.some((url) => /\/commit\/[0-9a-f]{40}$/.test(url))).toBe(true);
  });

  it("open on the local GitHub: /issue of a pull request and of an issue, and /commit", async () => {
    for (const number of [DEMO_ISSUES.openPull, DEMO_ISSUES.open]) {
      const record = await world().run({
        kind: "slash",
        name: "issue",
        options: { repo: "demo/widgets", number },
      });
      await expectEveryLinkOpens(world(), record);
    }
    const commit = await world().run({ kind: "slash", name: "commit", options: { repo: "demo/widgets" } });
    await expectEveryLinkOpens(world(), commit);
  });

  it("open on the local GitHub: /history (its history page lists the commits git log does) and /owners", async () => {
    const history = await world().run({
      kind: "slash",
      name: "history",
      options: { repo: "demo/widgets", path: "src/lib/util" },
    });
    const owners = await world().run({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path: "src" },
    });
    const links = [
      ...(await expectEveryLinkOpens(world(), history)),
      ...(await expectEveryLinkOpens(world(), owners)),
    ];
    const historyPage = links.find((url) => /\/commits\/[0-9a-f]{40}\/src\/lib\/util$/.test(url));
    expect(historyPage).toBeDefined();
    const html = await (await fetch(historyPage!)).text();
    const listed = [...html.matchAll(/\/commit\/([0-9a-f]{40})"/g)].map((match) => match[1]);
    const shown = [...transcriptOf(history).text.matchAll(/\/commit\/([0-9a-f]{40})/g)].map(
      (match) => match[1],
    );
    expect(listed).toEqual([...new Set(shown)]);
    expect(links.some((url) => /\/tree\/[0-9a-f]{40}\/src$/.test(url))).toBe(true);
  });

  it("are named in the sandbox's banner", () => {
    expect(sandboxBanner(world(), "data/sandbox.log")).toContain(
      `  web pages:     ${world().github.webUrl}/demo/widgets (every link of an answer opens on the local GitHub)`,
    );
  });

  it("follow a link posted in the local Discord, which points at the local GitHub too", async () => {
    const message = world().discord.demoMessages.oneLink!;
    const record = await world().run({ kind: "message", name: "Show code", message }, { settleMs: 150 });
    const links = await expectEveryLinkOpens(world(), record);
    expect(links.some((url) => url.endsWith("/src/engine.ts#L10-L20"))).toBe(true);
  });
});
