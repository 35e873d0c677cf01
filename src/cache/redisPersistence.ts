import type { Logger } from "../logger.js";

/** What Redis says of its persistence (`CONFIG GET save` and `appendonly`). */
export interface RedisPersistence {
  /** RDB snapshots configured (`save` not empty). */
  snapshots: boolean;
  /** The append-only file is on. */
  appendOnly: boolean;
}

/** The commands the check needs of a node-redis client. */
export interface ConfigReader {
  configGet(parameter: string): Promise<Record<string, string>>;
}

/**
 * Asks Redis whether it keeps its data across a restart. Null when it cannot be asked (managed
 * Redis services often refuse CONFIG): nothing is known then, and nothing is said.
 */
export async function readRedisPersistence(client: ConfigReader): Promise<RedisPersistence | null> {
  try {
    const [save, appendOnly] = await Promise.all([client.configGet("save"), client.configGet("appendonly")]);
    return { snapshots: (save.save ?? "").trim() !== "", appendOnly: appendOnly.appendonly === "yes" };
  } catch {
    return null;
  }
}

/**
 * Warns at start when Redis persists nothing: its restart empties the token vaults and the
 * settings, so every server falls back to the default token and every signed-in person is signed
 * out. Snapshots alone lose what changed since the last one: a lighter warning.
 */
export async function warnAboutRedisPersistence(
  client: ConfigReader,
  logger: Logger,
): Promise<RedisPersistence | null> {
  const persistence = await readRedisPersistence(client);
  if (!persistence) return null;
  if (!persistence.snapshots && !persistence.appendOnly) {
    logger.warn(
      { store: "redis", save: "", appendonly: "no" },
      "Redis keeps nothing across a restart (no snapshots, no append-only file): a restart of Redis empties the token vaults and the settings. Turn on appendonly (redis-server --appendonly yes)",
    );
  } else if (!persistence.appendOnly) {
    logger.warn(
      { store: "redis", appendonly: "no" },
      "Redis keeps only periodic snapshots: tokens stored since the last one are lost if Redis stops. appendonly yes keeps every write",
    );
  }
  return persistence;
}
