import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, type GraphQLSchema } from "graphql";

let cached: { schema: GraphQLSchema; sdl: string } | null = null;

function load(): { schema: GraphQLSchema; sdl: string } {
  if (cached) return cached;
  // The package does not export the SDL file; find it next to its entry point.
  const url = new URL("./schema.graphql", import.meta.resolve("@octokit/graphql-schema"));
  const sdl = readFileSync(fileURLToPath(url), "utf8");
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
