import { randomBytes } from "node:crypto";
import { chmod, link, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ensurePrivateDir, ensurePrivateFile } from "../secureDataDir.js";

/** The sandbox's encryption key, in its data dir. */
export const SANDBOX_KEY_FILE = "token-encryption.key";

function parseKey(text: string, path: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new Error(`${path} does not hold a 32-byte key in base64; delete it to have a new one made`);
  }
  return key;
}

/**
 * Reads a 32-byte key (base64 text) from `path`, or creates it: 32 random bytes, file mode 0600,
 * folder created 0700. An existing key file readable by others is tightened to 0600. A new key is
 * written whole to a file of its own, then linked to `path` (which fails if `path` exists), so two
 * processes starting together end up with the same key: the loser reads the winner's file, never
 * a half-written one. (An exclusive open of `path` itself, as before, let the loser read the file
 * between its creation and its content: an empty key, refused, one test run in a few.)
 * @throws when the file exists but does not hold a 32-byte base64 key.
 */
export async function loadOrCreateKeyFile(path: string): Promise<Buffer> {
  try {
    const key = parseKey(await readFile(path, "utf8"), path);
    await ensurePrivateFile(path);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await ensurePrivateDir(dirname(path));
  const key = randomBytes(32);
  const written = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.new`;
  try {
    await writeFile(written, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    // The mode given to writeFile is masked by the umask; the key must be private whatever the umask.
    await chmod(written, 0o600);
    await link(written, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return parseKey(await readFile(path, "utf8"), path);
    throw error;
  } finally {
    await rm(written, { force: true });
  }
  return key;
}

/**
 * The encryption key of the local sandbox: `<dataDir>/token-encryption.key`, created on first use
 * (SPEC section 5: "the sandbox makes one in DATA_DIR"). A real deployment sets
 * TOKEN_ENCRYPTION_KEY instead.
 */
export async function loadOrCreateSandboxKey(dataDir: string): Promise<Buffer> {
  return loadOrCreateKeyFile(join(dataDir, SANDBOX_KEY_FILE));
}
