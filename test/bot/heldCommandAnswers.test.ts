import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { command as blame } from "../../commands/blame.js";
import { command as contents } from "../../commands/contents.js";
import { command as contributors } from "../../commands/contributors.js";
import { command as repos } from "../../commands/repos.js";
import { command as whoami } from "../../commands/whoami.js";
import type { CommandModule, CommandRequest } from "../../src/bot/commandModule.js";
import { loadConfig } from "../../src/config.js";
import { createServices, type RunningServices } from "../../src/createServices.js";
import { silentLogger } from "../../src/logger.js";
import {
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../src/sandbox/github/index.js";

// Issue 23: the held answers of /blame, /contents, /repos and /whoami are exactly what `execute` gives, message and
// buttons included, and there is none until the same read was made through the steps.

const GUILD = "1200000000000000001";

function requestOf(userId = "1300000000000000001"): CommandRequest {
  return {
    interactionId: "1500000000000000000",
    guildId: GUILD,
    channelId: "1400000000000000001",
    userId,
    memberPermissions: 0n,
    locale: "en-US",
    logger: silentLogger(),
    editBy: new Date(Date.now() + 14 * 60_000),
  };
}

// One process's services, the GitHub stand-in behind them, for both kinds of held answer.
let github: GitHubStandIn;
let running: RunningServices;

beforeAll(async () => {
  github = await startGitHubStandIn();
  const config = loadConfig({
    DISCORD_TOKEN: "test.token.value",
    GITHUB_API_URL: github.restUrl,
    GITHUB_GRAPHQL_URL: github.graphqlUrl,
    GITHUB_TOKEN: DEMO_TOKEN,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    DATA_DIR: "unused",
    LOG_LEVEL: "warn",
  });
  running = await createServices(config, silentLogger(), { memoryStores: true });
});
afterAll(async () => {
  await running?.close();
  await github?.close();
});

describe("a command's held answer (issue 23)", () => {
  const asked: Array<{
    command: CommandModule;
    options: Record<string, string>;
    buttons: boolean | "any";
  }> = [
    {
      command: blame,
      options: { repo: "demo/widgets", path: "src/engine.ts", lines: "100-140" },
      buttons: true,
    },
    { command: blame, options: { repo: "demo/widgets", path: "src/engine.ts" }, buttons: true },
    {
      command: blame,
      options: { repo: "https://github.com/demo/widgets/blob/main/src/engine.ts", lines: "5-9" },
      buttons: true,
    },
    {
      command: contents,
      options: { repo: "demo/widgets", path: "src/engine.ts", lines: "10-30" },
      buttons: true,
    },
    { command: contents, options: { repo: "demo/widgets", path: "src" }, buttons: "any" },
    { command: repos, options: { owner: "demo" }, buttons: "any" },
    { command: repos, options: { owner: "demo", sort: "name" }, buttons: "any" },
    { command: whoami, options: {}, buttons: false },
    { command: contributors, options: { repo: DEMO_REPOSITORIES.crowd }, buttons: true },
    { command: contributors, options: { repo: "demo/widgets" }, buttons: "any" },
    {
      command: contents,
      options: { repo: "https://github.com/demo/widgets/blob/main/src/engine.ts", lines: "1-5" },
      buttons: true,
    },
  ];

  for (const { command, options, buttons } of asked) {
    it(`is what execute gives, once the read was made: /${command.data.name} ${JSON.stringify(options)}`, async () => {
      const { services } = running;
      const args = command.parse(options, services);
      const request = requestOf();
      expect(command.answerHeld!(args, request, services)).toBeUndefined();
      await command.execute(args, request, services);
      // The second read takes the steps wholly in process: the one a held answer repeats.
      const steps = await command.execute(args, request, services);
      const held = command.answerHeld!(args, request, services);
      expect(held).toEqual(steps);
      // The very message the steps rendered, not another made alike.
      expect(held?.message).toBe(steps.message);
      // A file's page turns through its buttons (their states held); /whoami has none.
      if (buttons !== "any") expect((held?.message.components.length ?? 0) > 0).toBe(buttons);
      // Another member of the same server, who never signed in (the vault, written by this
      // process alone, knows it without a read): the same token in effect, the same answer.
      expect(command.answerHeld!(args, requestOf("1300000000000000002"), services)).toEqual(steps);
    });
  }
});

/** The custom ids of a message's buttons that turn pages (`<prefix>:<key>`; a disabled one is `noop:`). */
function buttonIds(message: { components: readonly unknown[] }, prefix: string): string[] {
  return (message.components as Array<{ components?: Array<{ custom_id?: string }> }>).flatMap((row) =>
    (row.components ?? []).flatMap((button) =>
      button.custom_id?.startsWith(`${prefix}:`) ? [button.custom_id] : [],
    ),
  );
}

describe("a button's held page (issue 23)", () => {
  const pressed: Array<{ command: CommandModule; options: Record<string, string | number> }> = [
    { command: blame, options: { repo: "demo/widgets", path: "src/engine.ts", lines: "100-140" } },
    { command: contents, options: { repo: "demo/widgets", path: "src/engine.ts", lines: "10-30" } },
    // The last page: its Previous turns to page 2, which no test here read before (page 1 was).
    { command: contributors, options: { repo: DEMO_REPOSITORIES.crowd, page: 3 } },
  ];

  for (const { command, options } of pressed) {
    it(`is what the button's steps give, once the page was read: /${command.data.name} ${JSON.stringify(options)}`, async () => {
      const { services } = running;
      const first = await command.execute(command.parse(options, services), requestOf(), services);
      const ids = buttonIds(first.message, command.data.name);
      expect(ids.length).toBeGreaterThan(0);
      for (const customId of ids) {
        const context = { request: requestOf(), customId };
        // The state is held (this process stored it), the page's read not yet.
        expect(services.buttons.heldState!(customId.slice(customId.indexOf(":") + 1))).toBeDefined();
        expect(command.buttonHeld!(context, services)).toBeUndefined();
        await command.button!(context, services);
        const steps = await command.button!(context, services);
        const held = command.buttonHeld!(context, services);
        expect(held).toEqual(steps);
        expect(held?.message).toBe(steps.message);
        // Another member, who never signed in: the same token in effect, the same page.
        expect(
          command.buttonHeld!({ request: requestOf("1300000000000000002"), customId }, services),
        ).toEqual(steps);
      }
    });
  }

  it("is none for a button whose state this process did not store, nor for a pressed key of another shape", async () => {
    const { services } = running;
    expect(
      blame.buttonHeld!({ request: requestOf(), customId: "blame:AAAAAAAAAAAA" }, services),
    ).toBeUndefined();
    const key = await services.buttons.put({ owner: "demo", sort: "name", cursors: [null] });
    // A state of /repos's shape under /blame's prefix: /blame's steps say the button expired.
    expect(blame.buttonHeld!({ request: requestOf(), customId: `blame:${key}` }, services)).toBeUndefined();
    await expect(
      blame.button!({ request: requestOf(), customId: `blame:${key}` }, services),
    ).rejects.toThrow();
  });

  it("turns /repos's pages held once read", async () => {
    const { services } = running;
    // alice has more repositories than a page.
    const first = await repos.execute(repos.parse({ owner: "alice" }, services), requestOf(), services);
    const [next] = buttonIds(first.message, "repos");
    expect(next).toBeDefined();
    const context = { request: requestOf(), customId: next! };
    expect(repos.buttonHeld!(context, services)).toBeUndefined();
    await repos.button!(context, services);
    const steps = await repos.button!(context, services);
    expect(repos.buttonHeld!(context, services)).toEqual(steps);
    // Page 2 turns back to page 1 through its own held buttons.
    const back = buttonIds(steps.message, "repos");
    expect(back).toHaveLength(2);
    const previous = await repos.button!({ request: requestOf(), customId: back[0]! }, services);
    expect(repos.buttonHeld!({ request: requestOf(), customId: back[0]! }, services)).toEqual(previous);
  });
});
