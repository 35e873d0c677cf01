import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPreparedConnection, type PreparedConnection } from "../../src/cache/preparedSqlite.js";

let dir: string;
let connection: PreparedConnection;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "reposcout-prepared-"));
  connection = await openPreparedConnection(join(dir, "store.sqlite"), 250);
  await connection.query("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
});

afterEach(async () => {
  await connection.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe("a SQLite connection with prepared statements", () => {
  it("keeps one statement per SQL text, and answers each run with its own rows", async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        connection.query("INSERT INTO t (k, v) VALUES (?, ?)", `k${i}`, `v${i}`),
      ),
    );
    const rows = await Promise.all(
      Array.from({ length: 50 }, (_, i) => connection.query("SELECT v FROM t WHERE k = ?", `k${i}`)),
    );
    expect(rows.map((each) => (each as Array<{ v: string }>)[0]?.v)).toEqual(
      Array.from({ length: 50 }, (_, i) => `v${i}`),
    );
    // CREATE, INSERT and SELECT: three texts, whatever the number of runs.
    expect(connection.prepared()).toBe(3);
  });

  it("takes parameters as Database#all does: spread, or one array", async () => {
    await connection.query("INSERT INTO t (k, v) VALUES (?, ?)", "a", "1");
    await connection.query("INSERT INTO t (k, v) VALUES (?, ?)", ["b", "2"]);
    expect(
      await connection.query("SELECT k, v FROM t WHERE k LIKE ? ORDER BY k LIMIT ? OFFSET ?", ["%", 5, 0]),
    ).toEqual([
      { k: "a", v: "1" },
      { k: "b", v: "2" },
    ]);
  });

  it("rejects SQL that does not compile, and prepares it again once it does", async () => {
    await expect(connection.query("SELECT v FROM later")).rejects.toThrow(/no such table: later/);
    await connection.query("CREATE TABLE later (v TEXT)");
    await connection.query("INSERT INTO later (v) VALUES ('now')");
    expect(await connection.query("SELECT v FROM later")).toEqual([{ v: "now" }]);
  });

  it("a failed run is the caller's error; the runs queued beside it and the next ones still work", async () => {
    await connection.query("INSERT INTO t (k, v) VALUES (?, ?)", "taken", "1");
    const runs = await Promise.allSettled(
      ["free-1", "taken", "free-2"].map((k) =>
        connection.query("INSERT INTO t (k, v) VALUES (?, ?)", k, "2"),
      ),
    );
    expect(runs.map((run) => run.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((runs[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    await connection.query("INSERT INTO t (k, v) VALUES (?, ?)", "free-3", "3");
    expect(await connection.query("SELECT COUNT(*) AS n FROM t")).toEqual([{ n: 4 }]);
  });

  it("holds at most 64 statements, the least recently used finalized first", async () => {
    for (let i = 0; i < 100; i++) expect(await connection.query(`SELECT ${i} AS n`)).toEqual([{ n: i }]);
    expect(connection.prepared()).toBe(64);
    // An evicted text is prepared again when it comes back.
    expect(await connection.query("SELECT 0 AS n")).toEqual([{ n: 0 }]);
  });

  it("closes with its statements, and refuses queries after", async () => {
    await connection.query("SELECT 1");
    await connection.close();
    await expect(connection.query("SELECT 1")).rejects.toThrow();
  });
});
