#!/usr/bin/env node
/*
 * `npm start`: runs RepoScout's build (dist/, from `npm run build`) with plain node when it is there
 * and newer than every source file; otherwise the TypeScript sources, through tsx's loader, in this
 * same process. Either way this process is the bot: a signal sent to it (or forwarded by npm) is the
 * bot's to handle, and no child is left behind.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = join(root, "dist", "src", "index.js");

/** The newest modification time of the sources the build is made from. */
function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (/\.(ts|json)$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const part of [
    "src",
    "commands",
    "deploy-commands.ts",
    "package.json",
    "tsconfig.json",
    "tsconfig.build.json",
  ]) {
    visit(join(root, part));
  }
  return newest;
}

if (existsSync(built) && statSync(built).mtimeMs >= newestSource()) {
  await import(pathToFileURL(built).href);
} else {
  if (existsSync(built)) {
    console.error(
      "RepoScout: the build in dist/ is older than the sources; running the sources (`npm run build` to use the build).",
    );
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "src", "index.ts")).href);
}
