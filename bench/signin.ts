/**
 * Sign-in figures: how many user tokens a second the vault decrypts (the sealing alone, and a whole
 * vault read from a memory store: zod, associated data, AES-256-GCM), and how long a sandbox
 * `/login` takes from the command to "signed in as" when the code is approved at once through the
 * stand-in's test call (polling every 50 ms there; GitHub asks for 5 s, which bounds a real sign-in
 * from below).
 */
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { openStores } from "../src/cache/openStores.js";
import { silentLogger } from "../src/logger.js";
import { OTHER_LOGIN } from "../src/sandbox/github/index.js";
import { startSandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf } from "../src/sandbox/transcript.js";
import { createKeyring, seal, unseal } from "../src/tokens/sealing.js";
import { createUserTokenVault } from "../src/tokens/userTokenVault.js";

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function perSecond(count: number, ms: number): string {
  return new Intl.NumberFormat("en-US").format(Math.round((count / ms) * 1000));
}

async function benchVault(): Promise<string[]> {
  const key = createKeyring(randomBytes(32)).current!;
  const associated = Buffer.from('["reposcout-user-token",1,"444444444444444444"]');
  const sealed = seal(
    key,
    JSON.stringify({ t: `ghu_${"x".repeat(36)}`, r: `ghr_${"y".repeat(76)}` }),
    associated,
  );
  const rounds = 50_000;
  for (let i = 0; i < 1_000; i++) unseal(key, sealed, associated);
  let started = performance.now();
  for (let i = 0; i < rounds; i++) unseal(key, sealed, associated);
  const unsealMs = performance.now() - started;

  const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
  try {
    const vault = createUserTokenVault({
      store: stores.durable("user-tokens"),
      key: randomBytes(32),
      logger: silentLogger(),
    });
    const users = Array.from({ length: 1_000 }, (_, index) =>
      String(400_000_000_000_000_000n + BigInt(index)),
    );
    for (const userId of users) {
      await vault.set(userId, {
        token: `ghu_${randomBytes(18).toString("hex")}`,
        refreshToken: `ghr_${randomBytes(38).toString("hex")}`,
        expiresAt: new Date(Date.now() + 8 * 3600_000).toISOString(),
        refreshTokenExpiresAt: new Date(Date.now() + 4000 * 3600_000).toISOString(),
        login: "octocat",
        signedInAt: new Date().toISOString(),
        clientId: "Iv23liBench",
      });
    }
    const reads = 20_000;
    started = performance.now();
    for (let i = 0; i < reads; i++) await vault.get(users[i % users.length]!);
    const readMs = performance.now() - started;
    return [
      `vault decryption (AES-256-GCM with associated data), alone:      ${perSecond(rounds, unsealMs)} tokens/s`,
      `vault read of a sign-in (memory store, zod, decryption):          ${perSecond(reads, readMs)} tokens/s`,
    ];
  } finally {
    await stores.close();
  }
}

async function benchSandboxSignIn(): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    // The first sign-in also loads GitHub's schema in the stand-in (the login is read by GraphQL).
    const first = performance.now();
    await world.signIn({ user: "member", login: OTHER_LOGIN });
    const cold = performance.now() - first;
    const samples: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const record = await world.signIn({ user: i % 2 === 0 ? "admin" : "owner", login: OTHER_LOGIN });
      samples.push(performance.now() - started);
      if (!transcriptOf(record).text.includes("Signed in as")) throw new Error(transcriptOf(record).text);
    }
    return [
      `sandbox /login to "signed in as", approved at once (50 ms polls): p50 ${percentile(samples, 50).toFixed(0)} ms  p90 ${percentile(samples, 90).toFixed(0)} ms  (n=${samples.length}; first ${cold.toFixed(0)} ms)`,
      "  after an approval the bot's next poll comes within one interval: 50 ms here, 5 s on GitHub",
    ];
  } finally {
    await world.close();
  }
}

/** Runs the sign-in benchmark; returns the lines to print. */
export async function benchSignIn(): Promise<string[]> {
  return [...(await benchVault()), ...(await benchSandboxSignIn())];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchSignIn()) console.log(line);
  process.exit(0);
}
