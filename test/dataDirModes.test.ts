import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStores } from "../src/cache/openStores.js";
import { silentLogger, type Logger } from "../src/logger.js";
import { loadFingerprintKey } from "../src/tokens/fingerprint.js";
import { loadOrCreateSandboxKey } from "../src/tokens/keyFile.js";
import { capturingLogger } from "./cache/helpers.js";

/** The permission bits of a path, as `ls -l` reads them in octal. */
function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

/** Every file RepoScout leaves in a data dir after a run that wrote to both stores. */
async function runOnce(dataDir: string, logger: Logger = silentLogger()): Promise<string[]> {
  await loadOrCreateSandboxKey(dataDir);
  const stores = await openStores({ dataDir, logger, sweepIntervalMs: 0 });
  await loadFingerprintKey({ encryptionKey: undefined, dataDir });
  await stores.cache("blame").set("k", { private: "code" }, 60_000);
  await stores.durable("vault").set("123", { sealed: true });
  const files = [
    "cache.sqlite",
    "cache.sqlite-wal",
    "cache.sqlite-shm",
    "vault.sqlite",
    "token-encryption.key",
    "fingerprint.key",
  ].map((name) => join(dataDir, name));
  // Checked while the stores are open: the WAL side files exist only then.
  const modes = files.map((file) => `${file.slice(dataDir.length + 1)} ${modeOf(file)}`);
  await stores.close();
  return modes;
}

describe.skipIf(process.platform === "win32")("DATA_DIR is readable by its owner only", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "reposcout-modes-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("creates the folder 0700 and every file in it 0600", async () => {
    const dataDir = join(root, "fresh", "data");
    const modes = await runOnce(dataDir);
    expect(modeOf(dataDir)).toBe("700");
    expect(modes).toEqual([
      "cache.sqlite 600",
      "cache.sqlite-wal 600",
      "cache.sqlite-shm 600",
      "vault.sqlite 600",
      "token-encryption.key 600",
      "fingerprint.key 600",
    ]);
  });

  it("tightens a folder and files that already exist with looser modes", async () => {
    const dataDir = join(root, "loose");
    await runOnce(dataDir);
    chmodSync(dataDir, 0o755);
    for (const name of ["cache.sqlite", "vault.sqlite", "token-encryption.key", "fingerprint.key"]) {
      chmodSync(join(dataDir, name), 0o644);
    }
    // Side files left world-readable by an older version.
    writeFileSync(join(dataDir, "vault.sqlite-journal"), "");
    chmodSync(join(dataDir, "vault.sqlite-journal"), 0o666);

    const modes = await runOnce(dataDir);
    expect(modeOf(dataDir)).toBe("700");
    expect(
      modes.every((entry) => entry.endsWith(" 600")),
      modes.join(", "),
    ).toBe(true);
    expect(modeOf(join(dataDir, "vault.sqlite-journal"))).toBe("600");
  });

  it("in a folder that is not only RepoScout's, makes its own files private, leaves the rest, and warns", async () => {
    const dataDir = join(root, "shared");
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, "notes.txt"), "mine");
    chmodSync(join(dataDir, "notes.txt"), 0o644);
    const log = capturingLogger("warn");
    const modes = await runOnce(dataDir, log.logger);
    expect(
      modes.every((entry) => entry.endsWith(" 600")),
      modes.join(", "),
    ).toBe(true);
    expect(modeOf(join(dataDir, "notes.txt"))).toBe("644");
    expect(modeOf(dataDir)).toBe("755");
    const warning = log.lines().find((line) => line.path === dataDir);
    expect(warning?.msg).toMatch(/cannot make this DATA_DIR entry private/);
    expect(String(warning?.reason)).toMatch(/not RepoScout's \(such as notes.txt\)/);
  });
});
