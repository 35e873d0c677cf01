import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { createClient } from "@keyv/redis";
import { describe, expect, it } from "vitest";
import { findExecutable, startRedisServer } from "./startRedisServer.js";

const binary = findExecutable("redis-server", process.env.PATH);

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe.skipIf(binary === null)("the tests' own redis-server", () => {
  it("listens on a free loopback port, in a temporary folder, keeping nothing on disk; stop ends it", async () => {
    const server = await startRedisServer(binary!);
    let stopped = false;
    try {
      expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
      expect(server.port).not.toBe(6379);
      const client = createClient({ url: server.url });
      await client.connect();
      try {
        await client.set("k", "v");
        expect(await client.get("k")).toBe("v");
        expect(await client.configGet("save")).toEqual({ save: "" });
        expect(await client.configGet("appendonly")).toEqual({ appendonly: "no" });
        expect(await client.configGet("dir")).toEqual({ dir: server.dir });
        expect(await client.configGet("bind")).toEqual({ bind: "127.0.0.1" });
      } finally {
        await client.close();
      }
      await server.stop();
      stopped = true;
      expect(await accepts(server.port)).toBe(false);
      expect(existsSync(server.dir)).toBe(false);
      await server.stop();
    } finally {
      if (!stopped) await server.stop();
    }
  });

  it("gives two servers two ports and two folders", async () => {
    const [a, b] = await Promise.all([startRedisServer(binary!), startRedisServer(binary!)]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.dir).not.toBe(b.dir);
      expect(await readdir(a.dir)).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it.skipIf(findExecutable("setpriv", process.env.PATH) === null)(
    "dies with the process that started it, even one killed with SIGKILL",
    async () => {
      const holder = spawn(
        process.execPath,
        ["--import", "tsx", fileURLToPath(new URL("fixtures/holdRedisServer.ts", import.meta.url)), binary!],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      const started = await new Promise<{ port: number; dir: string }>((resolve, reject) => {
        let output = "";
        holder.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString("utf8");
          if (output.includes("\n")) resolve(JSON.parse(output) as { port: number; dir: string });
        });
        holder.once("exit", (code) => reject(new Error(`the holder exited (${String(code)}): ${output}`)));
      });
      try {
        expect(await accepts(started.port)).toBe(true);
        const exited = new Promise((resolve) => holder.once("exit", resolve));
        holder.kill("SIGKILL");
        await exited;
        await expect.poll(() => accepts(started.port), { timeout: 5_000 }).toBe(false);
      } finally {
        holder.kill("SIGKILL");
        await rm(started.dir, { recursive: true, force: true });
      }
    },
  );

  it("says why when the program cannot start", async () => {
    await expect(
      startRedisServer("/nonexistent/redis-server", { attempts: 1, setpriv: null }),
    ).rejects.toThrow(/ENOENT/);
    await expect(startRedisServer("/nonexistent/redis-server", { attempts: 1 })).rejects.toThrow(
      /ENOENT|No such file/,
    );
  });
});
