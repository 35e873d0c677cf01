import type { GitRepository } from "./gitRepository.js";

/**
 * A GraphQL answer is a pure function of the query, its variables, the viewer, the world (fixed
 * once the stand-in runs) and what git said. Git objects reached by id never change; only refs do
 * (HEAD, branches, any expression naming a ref). Resolvers record every such observation; an
 * identical later query gets the stored answer when every observation still holds, which is far
 * cheaper than running graphql-js over a blame of a hundred ranges again.
 */

/** Something a resolver read that can change while the stand-in runs. */
export type Observation =
  | { kind: "head"; git: GitRepository; branch: string | null }
  | { kind: "resolve"; git: GitRepository; expression: string; oid: string | null };

/** Expressions that start from a full object id name immutable content. */
const PINNED_EXPRESSION = /^[0-9a-f]{40}(?::|$)/;

/** What one execution observed, and whether its answer may be stored at all. */
export class ObservationLog {
  readonly entries: Observation[] = [];
  #cacheable = true;

  get cacheable(): boolean {
    return this.#cacheable;
  }

  /** The answer depends on something no observation can re-check (the rate limit, a ref listing). */
  uncacheable(): void {
    this.#cacheable = false;
  }

  head(git: GitRepository, branch: string | null): void {
    this.entries.push({ kind: "head", git, branch });
  }

  resolve(git: GitRepository, expression: string, oid: string | null): void {
    if (!PINNED_EXPRESSION.test(expression)) this.entries.push({ kind: "resolve", git, expression, oid });
  }
}

interface Stored {
  body: string;
  observations: Observation[];
}

/** Stored GraphQL answers by request key, re-checked against git before each use. */
export class ResponseCache {
  readonly #entries = new Map<string, Stored>();
  #bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** The stored answer for `key` when every observation behind it still holds. */
  async get(key: string): Promise<string | null> {
    const stored = this.#entries.get(key);
    if (!stored) return null;
    const checks = await Promise.all(stored.observations.map(stillHolds));
    if (checks.every(Boolean)) return stored.body;
    this.#delete(key);
    return null;
  }

  set(key: string, body: string, observations: Observation[]): void {
    this.#delete(key);
    this.#entries.set(key, { body, observations });
    this.#bytes += body.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.body.length;
    }
  }

  #delete(key: string): void {
    const stored = this.#entries.get(key);
    if (!stored) return;
    this.#entries.delete(key);
    this.#bytes -= stored.body.length;
  }
}

async function stillHolds(observation: Observation): Promise<boolean> {
  if (observation.kind === "head") return (await observation.git.defaultBranch()) === observation.branch;
  return ((await observation.git.resolve(observation.expression))?.oid ?? null) === observation.oid;
}
