import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { tmpdir } from "node:os";
import { gitEnvironment, type GitOptions } from "./gitProcess.js";

/** The type and size of an object, as `git cat-file` reports them. */
export interface ObjectInfo {
  oid: string;
  type: "blob" | "tree" | "commit" | "tag";
  size: number;
}

/** An object with its raw bytes. */
export interface RawObject extends ObjectInfo {
  content: Buffer;
}

interface Pending {
  /** The command line, to send again on a new process. */
  line: string;
  /** How many processes it was sent to. */
  attempts: number;
  withContent: boolean;
  resolve: (value: RawObject | ObjectInfo | null) => void;
  reject: (error: Error) => void;
}

const OBJECT_TYPES = new Set(["blob", "tree", "commit", "tag"]);

/**
 * One long-lived `git cat-file --batch-command` for a repository: it resolves rev-parse expressions
 * (`main`, `HEAD~2`, `<sha>:<path>`) and reads objects without a process per request. Commands are
 * answered in order, so a FIFO of pending promises matches answers to questions. When the process
 * dies (cat-file aborts on a few expressions), the first unanswered command is the one that killed
 * it and fails; the others are sent again to a new process.
 */
export class CatFileProcess {
  readonly #gitDir: string;
  readonly #options: GitOptions;
  #child: ChildProcessWithoutNullStreams | null = null;
  #pending: Pending[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #closed = false;

  constructor(gitDir: string, options: GitOptions = {}) {
    this.#gitDir = gitDir;
    this.#options = options;
  }

  /** Type and size of what `name` resolves to; null when it resolves to nothing. */
  info(name: string): Promise<ObjectInfo | null> {
    return this.#request("info", name) as Promise<ObjectInfo | null>;
  }

  /** The object `name` resolves to, with its bytes; null when it resolves to nothing. */
  contents(name: string): Promise<RawObject | null> {
    return this.#request("contents", name) as Promise<RawObject | null>;
  }

  /** Ends the process; pending and later requests fail. */
  close(): void {
    this.#closed = true;
    this.#failAll(new Error("cat-file closed"));
    this.#child?.kill();
    this.#child = null;
  }

  #request(command: "info" | "contents", name: string): Promise<RawObject | ObjectInfo | null> {
    if (this.#closed) return Promise.reject(new Error("cat-file closed"));
    // One command per line: a line break would split the name into two commands.
    if (name.includes("\n") || name.includes("\0") || name.length === 0) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const line = `${command} ${name}\n`;
      this.#pending.push({ line, attempts: 1, withContent: command === "contents", resolve, reject });
      this.#ensureChild().stdin.write(line);
    });
  }

  #ensureChild(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child;
    const child = spawn(
      this.#options.gitBinary ?? "git",
      [`--git-dir=${this.#gitDir}`, "cat-file", "--batch-command"],
      { cwd: tmpdir(), env: gitEnvironment(this.#options), stdio: ["pipe", "pipe", "pipe"] },
    );
    this.#child = child;
    this.#buffer = Buffer.alloc(0);
    child.stdout.on("data", (chunk: Buffer) => {
      if (this.#child === child) this.#onData(chunk);
    });
    child.stderr.on("data", () => undefined);
    child.stdin.on("error", () => undefined);
    let gone = false;
    const onGone = (error: Error): void => {
      if (gone) return;
      gone = true;
      if (this.#child === child) this.#child = null;
      if (this.#closed) return;
      const [culprit, ...others] = this.#pending;
      this.#pending = [];
      culprit?.reject(error);
      const retried = others.filter((request) => request.attempts < 3);
      for (const request of others) if (request.attempts >= 3) request.reject(error);
      if (retried.length === 0) return;
      const next = this.#ensureChild();
      for (const request of retried) {
        request.attempts += 1;
        this.#pending.push(request);
        next.stdin.write(request.line);
      }
    };
    child.on("error", onGone);
    // "close" comes after the last output was read, so every answer before the culprit is in.
    child.on("close", (code) => onGone(new Error(`git cat-file exited with ${String(code)}`)));
    return child;
  }

  #failAll(error: Error): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const request of pending) request.reject(error);
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const head = this.#pending[0];
      if (!head) return;
      const newline = this.#buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.#buffer.subarray(0, newline).toString("utf8");
      if (header.endsWith(" missing") || header.endsWith(" ambiguous")) {
        this.#buffer = this.#buffer.subarray(newline + 1);
        this.#pending.shift();
        head.resolve(null);
        continue;
      }
      const [oid, type, sizeText] = header.split(" ");
      const size = Number(sizeText);
      if (!oid || !type || !OBJECT_TYPES.has(type) || !Number.isInteger(size)) {
        this.#pending.shift();
        head.reject(new Error(`unexpected cat-file answer: ${header}`));
        this.#buffer = this.#buffer.subarray(newline + 1);
        continue;
      }
      const info: ObjectInfo = { oid, type: type as ObjectInfo["type"], size };
      if (!head.withContent) {
        this.#buffer = this.#buffer.subarray(newline + 1);
        this.#pending.shift();
        head.resolve(info);
        continue;
      }
      // Contents are followed by one line feed; wait until all of it has arrived.
      const end = newline + 1 + size;
      if (this.#buffer.length < end + 1) return;
      const content = Buffer.from(this.#buffer.subarray(newline + 1, end));
      this.#buffer = this.#buffer.subarray(end + 1);
      this.#pending.shift();
      head.resolve({ ...info, content });
    }
  }
}
