import sqlite3 from "sqlite3";

/** Most statements kept prepared on one connection: the SQL texts in use are a dozen or two. */
const MAX_PREPARED = 64;

/** A statement kept prepared, and its preparation. */
interface Held {
  statement: sqlite3.Statement;
  ready: Promise<void>;
}

/** A SQLite connection whose queries run through statements kept prepared, one per SQL text. */
export interface PreparedConnection {
  /** Runs `sql` with `parameters` (as `Database#all` takes them) and gives its rows. */
  query(sql: string, ...parameters: unknown[]): Promise<unknown[]>;
  /** Statements held prepared now. */
  prepared(): number;
  /** Finalizes every statement, then closes the connection. */
  close(): Promise<void>;
}

/** Opens (creating) the SQLite file at `path`: one connection, once it is open. */
export function openDatabase(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
}

/**
 * Opens `path` with statements kept prepared. `Database#all` (what `@keyv/sqlite` runs every query
 * with) prepares a statement, runs it and finalizes it: three trips to libuv's threadpool, each a
 * worker woken and its completion signalled back. A statement kept prepared makes one trip: on
 * this machine a missing key's read took 39-41 µs of CPU instead of 66-89 (`bench/sqlite-queries.ts`).
 *
 * A statement whose run fails is dropped, so one prepared before its table existed (or broken by
 * any other error) is prepared again next time. Past {@link MAX_PREPARED} texts the least recently
 * used statement is finalized; node-sqlite3 finalizes it after the runs already queued on it.
 */
export async function openPreparedConnection(
  path: string,
  busyTimeoutMs: number,
): Promise<PreparedConnection> {
  const database = await openDatabase(path);
  database.configure("busyTimeout", busyTimeoutMs);
  /** By SQL text, a statement and its preparation (which fails for SQL that does not compile). */
  const statements = new Map<string, Held>();
  const finalize = (held: Held): void => {
    held.statement.finalize(() => undefined);
  };
  const drop = (sql: string, held: Held): void => {
    if (statements.get(sql) === held) statements.delete(sql);
    finalize(held);
  };
  const prepare = (sql: string): Held => {
    let statement: sqlite3.Statement | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      statement = database.prepare(sql, (error) => (error ? reject(error) : resolve()));
    });
    // Awaited by each query; a held statement dropped unused must not leave a rejection unheard.
    ready.catch(() => undefined);
    return { statement: statement!, ready };
  };

  return {
    query(sql, ...parameters) {
      let held = statements.get(sql);
      if (held === undefined) {
        held = prepare(sql);
        if (statements.size >= MAX_PREPARED) {
          const [oldest, evicted] = statements.entries().next().value as [string, Held];
          statements.delete(oldest);
          finalize(evicted);
        }
      } else {
        // Most recently used last: the map's order is the eviction order.
        statements.delete(sql);
      }
      statements.set(sql, held);
      const running = held;
      return running.ready.then(
        () =>
          new Promise<unknown[]>((resolve, reject) => {
            running.statement.all(...parameters, (error: Error | null, rows: unknown[]) => {
              if (error) {
                drop(sql, running);
                reject(error);
              } else {
                resolve(rows);
              }
            });
          }),
        (error: unknown) => {
          drop(sql, running);
          throw error;
        },
      );
    },
    prepared: () => statements.size,
    async close() {
      for (const held of statements.values()) finalize(held);
      statements.clear();
      await new Promise<void>((resolve, reject) =>
        database.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
