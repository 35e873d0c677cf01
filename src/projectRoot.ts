import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's root folder (the nearest one above holding package.json): the same whether the code
 * runs from its TypeScript sources (`src/…`) or from the build (`dist/src/…`, one level deeper), in
 * a checkout or in the image, whose run stage has package.json and dist/ but no sources.
 */
export function projectRoot(from: string = import.meta.url): string {
  let folder = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(folder, "package.json"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error("RepoScout's project folder (package.json) was not found");
    folder = parent;
  }
}
