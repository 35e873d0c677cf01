import { readdir } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { commandModuleSchema, type CommandModule } from "./commandModule.js";

/** The `commands/` folder at the project root. */
export const COMMANDS_DIR = fileURLToPath(new URL("../../commands/", import.meta.url));

/**
 * Loads every module of `commands/` (one file per slash command, exporting `command`) and checks
 * each module's shape before use. Shared by the bot and deploy-commands.ts, so both see the same
 * definitions.
 * @throws Error naming the file and what is wrong with it.
 */
export async function loadCommands(directory: string = COMMANDS_DIR): Promise<Map<string, CommandModule>> {
  const files = (await readdir(directory))
    .filter((file) => /\.(ts|js|mjs)$/.test(file) && !file.endsWith(".d.ts") && !file.startsWith("_"))
    .sort();
  const commands = new Map<string, CommandModule>();
  for (const file of files) {
    const exported: unknown = (await import(pathToFileURL(`${directory}/${file}`).href)).command;
    const checked = commandModuleSchema.safeParse(exported);
    if (!checked.success) {
      throw new Error(
        `commands/${file} does not export a valid \`command\`: ${checked.error.issues
          .map((issue) => `${issue.path.join(".") || "(module)"} ${issue.message}`)
          .join("; ")}`,
      );
    }
    const module = exported as CommandModule;
    if (commands.has(module.data.name))
      throw new Error(`commands/${file} registers /${module.data.name} twice`);
    commands.set(module.data.name, module);
  }
  return commands;
}

/** The registration bodies of every command, in a stable order (deploy and `--dry-run`). */
export function commandDefinitions(commands: ReadonlyMap<string, CommandModule>): CommandModule["data"][] {
  return [...commands.values()].map((module) => module.data);
}
