/**
 * One SQLite query, as `@keyv/sqlite` runs it (`Database#all`: prepare, run, finalize, three trips
 * to libuv's threadpool) beside RepoScout's prepared connection (a statement kept per SQL text, one
 * trip: src/cache/preparedSqlite.ts), on the same file in turns: a missing key's read, and the
 * write of a 110 KB answer (a 2,000-line blame's stored size). CPU of the process (the threadpool's
 * threads included) per query. Alone: `npx tsx bench/sqlite-queries.ts`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pathToFileURL } from "node:url";
import { openDatabase, openPreparedConnection } from "../src/cache/preparedSqlite.js";
import { median } from "./sandboxTiming.js";

type Query = (sql: string, ...parameters: unknown[]) => Promise<unknown>;

const ROUNDS = 3;
const READS = 2_000;
const WRITES = 200;
const SELECT = "SELECT * FROM keyv WHERE key = ?";
const UPSERT =
  "INSERT INTO keyv (key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value";

/** CPU microseconds per call of `run`, over `count` calls one after another. */
async function cpuPer(count: number, run: (n: number) => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  for (let n = 0; n < count; n++) await run(n);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const spread = (values: number[]): string =>
  [Math.min(...values), median(values), Math.max(...values)].map((value) => value.toFixed(0)).join(" / ");

export async function benchSqliteQueries(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "reposcout-bench-sqlite-"));
  const path = join(dir, "cache.sqlite");
  const database = await openDatabase(path);
  const all = promisify(database.all).bind(database) as unknown as Query;
  const prepared = await openPreparedConnection(path, 250);
  try {
    await all("PRAGMA journal_mode = WAL");
    for (const query of [all, prepared.query]) await query("PRAGMA synchronous = NORMAL");
    await all("CREATE TABLE keyv (key VARCHAR(255) PRIMARY KEY, value TEXT)");
    const answer = "x".repeat(110_000);
    const figures = {
      all: { read: [] as number[], write: [] as number[] },
      prepared: { read: [] as number[], write: [] as number[] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, query] of [
        ["all", all],
        ["prepared", prepared.query],
      ] as const) {
        figures[name].read.push(await cpuPer(READS, (n) => query(SELECT, `missing:${round}:${n}`)));
        figures[name].write.push(await cpuPer(WRITES, (n) => query(UPSERT, `${name}:${round}:${n}`, answer)));
      }
    }
    const ratio = (a: number[], b: number[]): string => (median(b) / median(a)).toFixed(2);
    return [
      `CPU per query, µs, min / median / max of ${ROUNDS} rounds (${READS} reads, ${WRITES} writes of 110 KB each):`,
      `  a missing key's read:  Database#all ${spread(figures.all.read)}   prepared ${spread(figures.prepared.read)}   prepared / Database#all ${ratio(figures.all.read, figures.prepared.read)}×`,
      `  a 110 KB write:        Database#all ${spread(figures.all.write)}   prepared ${spread(figures.prepared.write)}   prepared / Database#all ${ratio(figures.all.write, figures.prepared.write)}×`,
    ];
  } finally {
    await prepared.close();
    await promisify(database.close).bind(database)();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchSqliteQueries()) console.log(line);
}
