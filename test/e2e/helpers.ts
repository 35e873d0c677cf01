import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIEmbed } from "discord-api-types/v10";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { FormattedMessage } from "../../src/format/message.js";
import type { InteractionRecord, MessageView, SlashInteraction } from "../../src/sandbox/discord/index.js";
import {
  DEMO_LOGIN,
  DEMO_TOKEN,
  ensureDemoWorld,
  type WorldDefinition,
} from "../../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld, type SandboxWorldOptions } from "../../src/sandbox/harness.js";
import { e2eTransport } from "./transport.js";
import {
  formattedOf,
  transcriptOf,
  type SeenMessage,
  type Transcript,
} from "../../src/sandbox/transcript.js";

/**
 * Shared steps of the end-to-end tests: one sandbox world per file (or per `describe` for worlds
 * that differ, such as one without a token), and checks of what a person in Discord or GitHub sees.
 */

/**
 * Starts a sandbox world on this pass's transport (see transport.ts) unless `options` names one.
 */
export function startWorld(options: SandboxWorldOptions = {}): Promise<SandboxWorld> {
  return startSandboxWorld({ transport: e2eTransport(), ...options });
}

/**
 * Starts a sandbox world (on this pass's transport) before the tests of the enclosing block and closes it after them. Between
 * tests, injected faults, latency and the demo token's rate limit are reset, so a test never leaves
 * GitHub broken for the next one.
 */
export function useWorld(options: SandboxWorldOptions & { extended?: boolean } = {}): () => SandboxWorld {
  let world: SandboxWorld | undefined;
  let extension: { definition: WorldDefinition; remove: () => void } | undefined;
  beforeAll(async () => {
    const { extended, ...rest } = options;
    if (extended) extension = await extendedDemoWorld();
    world = await startWorld({
      ...rest,
      ...(extension ? { github: { ...rest.github, world: extension.definition } } : {}),
      client: { holdWhileLimited: false, ...rest.client },
    });
  });
  afterAll(async () => {
    await world?.close();
    extension?.remove();
  });
  beforeEach(() => {
    if (!world) return;
    world.github.faults.clear();
    world.github.setLatency(0);
    world.github.setRateLimit(DEMO_TOKEN, { remaining: 5000 });
  });
  return () => {
    if (!world) throw new Error("the sandbox world is not started");
    return world;
  };
}

/** The organization of the extended world: more repositories than one page shows. */
export const BULK_OWNER = "bulk";
/** How many repositories `bulk` has. */
export const BULK_REPOSITORIES = 23;
/** A repository of `bulk` whose description is hostile markdown. */
export const BULK_HOSTILE = "bulk/repo-07";
export const HOSTILE_DESCRIPTION = "``` @everyone <@123> <@&456> **bold** [x](https://evil.example)";
/** A file of every `bulk` repository whose name is hostile markdown. */
export const HOSTILE_FILE = "weird/@everyone <@123> ``` *x* [y](z).md";
/** A folder of `bulk/repo-01` (and every other `bulk` repository) with 5 folders and 115 files. */
export const BIG_FOLDER = "many";
/** A symbolic link of every `bulk` repository whose target is hostile text (backticks, a line break, mentions). */
export const HOSTILE_LINK = "weird/link";
export const HOSTILE_LINK_TARGET = "x`\n@everyone `<@1>`.md";

function git(args: string[], input?: string): string {
  return execFileSync("git", args, {
    encoding: "utf8",
    input,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });
}

/**
 * The demo world plus organization `bulk`: 23 repositories (one private, one with a hostile
 * description) over one small git repository whose folder `many/` holds more entries than a
 * message lists, and whose `weird/` holds a file and a symbolic link named or pointing with hostile text. Built with `git fast-import` in a temporary folder; `remove` deletes it.
 */
export async function extendedDemoWorld(): Promise<{ definition: WorldDefinition; remove: () => void }> {
  const demo = await ensureDemoWorld();
  const root = mkdtempSync(join(tmpdir(), "reposcout-e2e-world-"));
  const gitDir = join(root, "bulk.git");
  git(["init", "--quiet", "--bare", "--initial-branch=main", gitDir]);
  const stream: string[] = ["blob", "mark :1", "data 6", "hello", ""];
  // A link's blob is its target, without a final newline; the line break after it ends the data.
  stream.push("blob", "mark :2", `data ${Buffer.byteLength(HOSTILE_LINK_TARGET)}`, HOSTILE_LINK_TARGET);
  stream.push(
    "commit refs/heads/main",
    "author Bulk Author <bulk@example.com> 1600000000 +0000",
    "committer Bulk Author <bulk@example.com> 1600000000 +0000",
    "data 12",
    "Many files",
    "",
  );
  stream.push("M 100644 :1 README.md", `M 100644 :1 ${HOSTILE_FILE}`, `M 120000 :2 ${HOSTILE_LINK}`);
  for (let folder = 1; folder <= 5; folder += 1)
    stream.push(`M 100644 :1 ${BIG_FOLDER}/dir-${folder}/inner.txt`);
  for (let file = 1; file <= 115; file += 1)
    stream.push(`M 100644 :1 ${BIG_FOLDER}/file-${String(file).padStart(3, "0")}.txt`);
  git(["--git-dir", gitDir, "fast-import", "--quiet"], `${stream.join("\n")}\n\n`);

  const definition = structuredClone(demo.definition);
  definition.organizations.push({ login: BULK_OWNER, id: 80100, name: "Bulk", members: [DEMO_LOGIN] });
  for (let index = 1; index <= BULK_REPOSITORIES; index += 1) {
    const name = `repo-${String(index).padStart(2, "0")}`;
    definition.repositories.push({
      owner: BULK_OWNER,
      name,
      id: 790000 + index,
      gitDir,
      isPrivate: index === 3,
      description:
        `${BULK_OWNER}/${name}` === BULK_HOSTILE ? HOSTILE_DESCRIPTION : `Repository number ${index}.`,
      // Pushed in the order of their numbers: the most recently pushed is repo-23.
      pushedAt: new Date(Date.UTC(2024, 0, index)).toISOString(),
    });
  }
  return { definition, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every message of an interaction as Discord stores it: the reply, follow-ups, thread messages. */
export function messagesOf(record: InteractionRecord): MessageView[] {
  const views = [record.original, ...record.followups, ...record.threadMessages];
  const seen = new Set<string>();
  return views.filter((view): view is MessageView => {
    if (!view || seen.has(view.id)) return false;
    seen.add(view.id);
    return true;
  });
}

/**
 * Discord accepted every write of the bot for this interaction (no 50035 for an over-limit
 * message, no 40060...), and no message pings anyone: `allowed_mentions` parses nothing and
 * Discord computed no mention.
 */
export function expectDeliveredWithoutPings(record: InteractionRecord): void {
  expect(record.errors.map((error) => `${error.method} ${error.path} ${error.status}`)).toEqual([]);
  const views = messagesOf(record);
  expect(views.length).toBeGreaterThan(0);
  for (const view of views) {
    expect(view.allowedMentions).toEqual({ parse: [] });
    expect(view.pings).toEqual({ everyone: false, users: [], roles: [] });
  }
}

/** The texts of a message that Discord renders as markdown. */
export function renderedTexts(message: FormattedMessage): string[] {
  const texts = [message.content ?? ""];
  for (const embed of message.embeds) {
    texts.push(
      embed.title ?? "",
      embed.description ?? "",
      embed.footer?.text ?? "",
      embed.author?.name ?? "",
    );
    for (const field of embed.fields ?? []) texts.push(field.name, field.value);
  }
  return texts.filter((text) => text !== "");
}

/**
 * What would misrender in Discord: a code block left open (an odd number of ``` runs), or, outside
 * code, an `@everyone`/`@here` or a `<@id>`, `<@&id>`, `<#id>` mention that renders as one.
 */
export function markupProblems(message: FormattedMessage): string[] {
  const problems: string[] = [];
  for (const text of renderedTexts(message)) {
    const fences = text.match(/```/g)?.length ?? 0;
    if (fences % 2 !== 0) problems.push(`open code block in: ${text.slice(0, 80)}`);
    const outside = text
      .split("```")
      .filter((_, index) => index % 2 === 0)
      .join("\n")
      .replace(/``[^`]*?``|`[^`\n]*`/g, " ");
    for (const match of outside.matchAll(/@(everyone|here)\b|<(@[!&]?|#)\d+>/g)) {
      problems.push(`${match[0]} renders in: ${text.slice(0, 80)}`);
    }
  }
  return problems;
}

/** The one answer of a successful interaction: its last message, and that message's first embed. */
export function answerOf(record: InteractionRecord): {
  seen: Transcript;
  last: SeenMessage;
  embed: APIEmbed;
  message: FormattedMessage;
} {
  const seen = transcriptOf(record);
  expect(seen.isError, seen.text).toBe(false);
  const last = seen.messages.at(-1);
  if (!last) throw new Error("the bot sent no message");
  const embed = last.message.embeds[0];
  if (!embed) throw new Error(`the answer has no embed: ${seen.text}`);
  return { seen, last, embed, message: last.message };
}

/** The custom id of the enabled button labelled like `label` on a message. */
export function buttonId(message: FormattedMessage, label: RegExp): string | null {
  for (const row of message.components) {
    for (const button of row.components) {
      if (!("label" in button) || !button.label || !label.test(button.label)) continue;
      if ("custom_id" in button && button.disabled !== true) return button.custom_id;
      return null;
    }
  }
  return null;
}

/** The URL of the Link button labelled like `label`. */
export function linkUrl(message: FormattedMessage, label: RegExp): string | null {
  for (const row of message.components) {
    for (const button of row.components) {
      if ("url" in button && button.label !== undefined && label.test(button.label)) return button.url;
    }
  }
  return null;
}

/** A message the bot sent, as a person reads it. */
export interface ShownMessage {
  id: string;
  message: FormattedMessage;
}

/**
 * Presses a button of a message, as a person would, and returns the message as it reads afterwards
 * (the bot edits the message the button is on) and the interaction's record.
 */
export async function press(
  world: SandboxWorld,
  shown: ShownMessage,
  label: RegExp,
): Promise<{ record: InteractionRecord; after: ShownMessage }> {
  const customId = buttonId(shown.message, label);
  if (customId === null) throw new Error(`no enabled button ${String(label)} on the message`);
  const record = await world.run({ kind: "button", message: shown.id, customId });
  const view = world.discord.message(shown.id);
  if (!view || view.deleted) throw new Error("the message is gone");
  return { record, after: { id: view.id, message: formattedOf(view) } };
}

/**
 * Runs a command that must be refused for a bad option: an ephemeral error that names the option,
 * and not a single request sent to GitHub.
 */
export async function expectRefusedLocally(
  world: SandboxWorld,
  request: SlashInteraction,
  option: string,
): Promise<string> {
  const before = world.github.requests.length;
  const record = await world.run(request);
  const seen = transcriptOf(record);
  expect(seen.isError, seen.text).toBe(true);
  expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
  expect(seen.text).toContain(`\`${option}\``);
  expect(world.github.requests.length).toBe(before);
  expect(record.errors).toEqual([]);
  return seen.text;
}

/** Runs a command that must fail: one ephemeral error, no public message; returns what it says. */
export async function errorText(world: SandboxWorld, request: SlashInteraction): Promise<string> {
  const record = await world.run(request, { settleMs: 100 });
  const seen = transcriptOf(record);
  expect(seen.isError, seen.text).toBe(true);
  expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
  expect(record.errors).toEqual([]);
  return seen.text;
}

/** The commit id a ref of a world repository resolves to, from its git directory. */
export function commitOf(world: SandboxWorld, nameWithOwner: string, ref: string): string {
  const [owner = "", name = ""] = nameWithOwner.split("/");
  const repository = world.github.world.repository(owner, name);
  if (!repository) throw new Error(`no repository ${nameWithOwner} in the world`);
  return execFileSync("git", ["--git-dir", repository.gitDir, "rev-parse", "--verify", `${ref}^{commit}`], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  }).trim();
}

/** The unix time of a `<t:UNIX:R>` in a text, or null. */
export function relativeTimeIn(text: string): number | null {
  const match = /<t:(\d+):R>/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * The rows of SPEC section 2 that every command meets when GitHub misbehaves, as tests: 401, no
 * token, primary and secondary rate limits, a 502 timeout, a 500 page and a request that hangs.
 * `request` must be one the world has not answered successfully (answers are cached; errors are
 * not), so each test reaches GitHub.
 */
export function upstreamFailureTests(
  command: string,
  world: () => SandboxWorld,
  request: SlashInteraction,
): void {
  const target = command === "contributors" ? "rest" : "graphql";

  it(`/${command}: says the server's token is no longer valid when GitHub answers 401`, async () => {
    world().github.faults.inject({ kind: "unauthorized", target });
    const text = await errorText(world(), request);
    expect(text).toMatch(/GitHub token is missing or no longer valid/);
    expect(text).toContain("/token set");
  });

  it(`/${command}: says the rate limit is used up, and when to try again, when the hourly budget is spent`, async () => {
    world().github.setRateLimit(DEMO_TOKEN, { remaining: 0 });
    const text = await errorText(world(), request);
    expect(text).toMatch(/rate limit/i);
    const when = relativeTimeIn(text);
    expect(when).not.toBeNull();
    expect(when!).toBeGreaterThan(Date.now() / 1000);
  });

  it(`/${command}: says to try again after GitHub's retry-after on a secondary rate limit`, async () => {
    world().github.faults.inject({ kind: "secondaryRateLimit", target, retryAfterSeconds: 90 });
    const text = await errorText(world(), request);
    expect(text).toMatch(/secondary rate limit/i);
    const when = relativeTimeIn(text)!;
    const expected = Date.now() / 1000 + 90;
    expect(Math.abs(when - expected)).toBeLessThan(15);
  });

  it(`/${command}: says GitHub did not answer in time when it answers 502 with its timeout body`, async () => {
    world().github.faults.inject({ kind: "badGateway", target, times: 2 });
    const text = await errorText(world(), request);
    expect(text).toMatch(/GitHub did not answer in time/);
    expect(text).toMatch(/try again/i);
  });

  it(`/${command}: says to try again when GitHub answers 500 with an HTML page`, async () => {
    world().github.faults.inject({ kind: "serverError", target, times: 2 });
    const text = await errorText(world(), request);
    expect(text).toMatch(/GitHub/);
    expect(text).toMatch(/try again/i);
    expect(text).not.toMatch(/<html|<!doctype/i);
  });
}

/** The SPEC rows that need a world of their own: no token at all, and GitHub hanging. */
export function isolatedFailureTests(
  command: string,
  request: SlashInteraction,
  describeBlock: (name: string, body: () => void) => void,
): void {
  describeBlock(`/${command} without any GitHub token`, () => {
    const world = useWorld({ defaultToken: null });
    it(`/${command}: says the server has no GitHub token and an admin can set one, asking GitHub nothing`, async () => {
      const text = await errorText(world(), request);
      expect(text).toMatch(/no GitHub token|token is missing/i);
      expect(text).toContain("/token set");
      expect(world().github.requests).toEqual([]);
    });
  });

  describeBlock(`/${command} when GitHub does not answer`, () => {
    const world = useWorld({ client: { timeoutMs: 800 } });
    it(`/${command}: says GitHub did not answer in time when a request hangs`, async () => {
      world().github.faults.inject({ kind: "hang", target: command === "contributors" ? "rest" : "graphql" });
      const text = await errorText(world(), request);
      expect(text).toMatch(/GitHub did not answer in time/);
      expect(text).toMatch(/try again/i);
    });
  });
}
