/**
 * Where the load figures' processes run (issue 23 item 6): on a machine with the cores for it, the
 * bot under measure gets a cpu of its own (`taskset -c`) and this process (the load driver and the
 * stand-ins, every thread of it) the others, so what is measured is the bot and not its fight with
 * the driver for a core. The bare bot is placed exactly as RepoScout is, so the comparison stays fair.
 */
import { execFileSync } from "node:child_process";
import { findExecutable } from "../../test/redis/startRedisServer.js";

export interface Placement {
  /** For each bot process, the cpu list to spawn it under (`taskset -c`), or null: not pinned. */
  bots: Array<string | null>;
  /** Where each ran, for the section's first line. */
  line: string;
  /** Gives this process back the cpus it had, so the sections after it run as they did before. */
  release(): void;
}

/** The cpu numbers of a list as taskset writes it ("0-3,6"). */
function expandCpuList(list: string): number[] {
  return list.split(",").flatMap((part) => {
    const [from, to] = part.split("-").map(Number) as [number, number | undefined];
    return Array.from({ length: (to ?? from) - from + 1 }, (_, index) => from + index);
  });
}

/** A short list of cpus for taskset and for a person: "0", "0,1", "0-2". */
function cpuList(cpus: readonly number[]): string {
  const contiguous = cpus.every((cpu, index) => index === 0 || cpu === cpus[index - 1]! + 1);
  return contiguous && cpus.length > 2 ? `${cpus[0]}-${cpus[cpus.length - 1]}` : cpus.join(",");
}

const cpuWord = (cpus: readonly number[]): string => `cpu${cpus.length > 1 ? "s" : ""} ${cpuList(cpus)}`;

/**
 * The cpus this process may run on, read once before any section narrows them: the same count as
 * `os.availableParallelism()` (both read the affinity), with the cpus' numbers, which may not start
 * at 0 in a container.
 */
const taskset = findExecutable("taskset", process.env.PATH);
const ownCpus: number[] | null = taskset
  ? expandCpuList(
      execFileSync(taskset, ["-c", "-p", String(process.pid)], { encoding: "utf8" })
        .split(": ")[1]!
        .trim(),
    )
  : null;

function pinThisProcess(cpus: readonly number[]): void {
  // -a: every thread this process has (the libuv pool, SQLite's workers); threads made later
  // inherit the main thread's placement.
  execFileSync(taskset!, ["-a", "-p", "-c", cpuList(cpus), String(process.pid)], { stdio: "ignore" });
}

/**
 * Places `count` bot processes, each on a cpu of its own (the last ones), and pins this process to
 * the others, once, for a section; when the machine cannot give every bot a cpu and keep one for the
 * driver, or taskset is missing, nothing is pinned and the line says why.
 */
export function placeBots(count = 1): Placement {
  const cpus = ownCpus ?? [];
  const needed = count + 1;
  const who = count === 1 ? "bot" : `${count} bots`;
  if (taskset === null || cpus.length < needed) {
    const why =
      taskset === null
        ? "no taskset on PATH"
        : `${cpus.length} cpu${cpus.length === 1 ? "" : "s"}, ${needed} needed (${count === 1 ? "the bot" : `${count} bots`} on a cpu each, the load driver on another)`;
    return {
      bots: Array.from({ length: count }, () => null),
      line: `not pinned: ${why}; ${count === 1 ? "the bot" : "the bots"}, the load driver and the stand-ins share the cpus`,
      release: () => undefined,
    };
  }
  const driver = cpus.slice(0, cpus.length - count);
  const bots = cpus.slice(cpus.length - count);
  pinThisProcess(driver);
  return {
    bots: bots.map(String),
    line: `${who} on ${count === 1 ? cpuWord(bots) : `${cpuWord(bots)}, one each`}, load driver and stand-ins on ${cpuWord(driver)}`,
    release: () => pinThisProcess(cpus),
  };
}
