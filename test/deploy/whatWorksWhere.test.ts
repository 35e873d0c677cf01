import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ApplicationIntegrationType, InteractionContextType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { loadCommands } from "../../src/bot/loadCommands.js";
import { ROOT } from "./replay.js";

/** The README's "What works where" table: each command named in a row, with its three yes/no cells. */
function readmeTable(): Map<string, boolean[]> {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("**What works where.**"));
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| ") && /\| (yes|no) /.test(line))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const table = new Map<string, boolean[]>();
  for (const [names = "", ...cells] of rows)
    for (const name of names.split(","))
      table.set(
        name.trim().replace(/^`\/|`$/g, ""),
        cells.map((cell) => cell === "yes"),
      );
  return table;
}

describe("the README's table of what works where", () => {
  it("says, for every command, what its registration tells Discord: servers, the bot's DM, user installs", async () => {
    const commands = await loadCommands();
    const table = readmeTable();
    expect([...table.keys()].sort()).toEqual([...commands.keys()].sort());
    for (const [name, module] of commands) {
      const { contexts, integration_types: installs } = module.data as {
        contexts: number[];
        integration_types: number[];
      };
      expect(table.get(name), name).toEqual([
        installs.includes(ApplicationIntegrationType.GuildInstall) &&
          contexts.includes(InteractionContextType.Guild),
        contexts.includes(InteractionContextType.BotDM),
        installs.includes(ApplicationIntegrationType.UserInstall),
      ]);
    }
  });
});
