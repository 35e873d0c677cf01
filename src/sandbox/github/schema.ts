import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSchema, type GraphQLSchema } from "graphql";

const PACKAGE = "@octokit/graphql-schema";

let cached: { schema: GraphQLSchema; sdl: string } | null = null;

/** The URL of the package's entry point, as `import.meta.resolve` gives it. */
function packageEntry(): URL {
  if (typeof import.meta.resolve === "function") return new URL(import.meta.resolve(PACKAGE));
  // Vitest's module runner has no import.meta.resolve: look in the node_modules folders above this
  // file, as Node's resolution does (the package exports only an `import` entry, so require.resolve
  // cannot find it).
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, "node_modules", ...PACKAGE.split("/"), "index.js");
    if (existsSync(candidate)) return pathToFileURL(candidate);
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find ${PACKAGE}`);
    folder = parent;
  }
}

/**
 * Whether GitHub's schema package is installed: it is a development dependency, absent from a
 * production install (`npm ci --omit=dev`, the image), and the local GitHub cannot answer without it.
 */
export function githubSchemaInstalled(): boolean {
  try {
    return existsSync(fileURLToPath(new URL("./schema.graphql", packageEntry())));
  } catch {
    return false;
  }
}

function load(): { schema: GraphQLSchema; sdl: string } {
  if (cached) return cached;
  // The package does not export the SDL file; it sits next to the entry point.
  const sdl = readFileSync(fileURLToPath(new URL("./schema.graphql", packageEntry())), "utf8");
  // assumeValidSDL: GitHub's SDL defines two fields of EnterpriseOwnerInfo twice.
  cached = { schema: buildSchema(sdl, { assumeValidSDL: true }), sdl };
  return cached;
}

/** GitHub's published GraphQL schema (`schema.graphql` of `@octokit/graphql-schema`), built once. */
export function githubSchema(): GraphQLSchema {
  return load().schema;
}

/** The SDL text of GitHub's schema (what GitHub answers to a GET with `Accept: ...v4.idl`). */
export function githubSchemaSdl(): string {
  return load().sdl;
}
