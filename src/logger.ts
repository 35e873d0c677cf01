import type { Writable } from "node:stream";
import { createRequire } from "node:module";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import type PinoPretty from "pino-pretty";
import { redactSecrets, scrubSecrets } from "./redactSecrets.js";

export type { Logger } from "pino";

export { REDACTED, redactSecrets, scrubSecrets, summariseBody } from "./redactSecrets.js";

export interface CreateLoggerOptions {
  level: LoggerOptions["level"];
  /** Where lines go; default stdout. */
  destination?: DestinationStream | Writable;
  /** Human-readable lines; default: when the destination is stdout and a terminal. */
  pretty?: boolean;
  /** Bound fields on every line. */
  base?: Record<string, unknown>;
}

/**
 * Creates the one pino root of the process. Secrets never reach a line (see ./redactSecrets.ts):
 * every field named like a token, secret or key is redacted at any depth, request bodies and
 * binary data are left out, response bodies are summarised, and token-looking text is scrubbed
 * from the message, the bindings and every string. Pretty output on a terminal, JSON otherwise.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const usePretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const loggerOptions: LoggerOptions = {
    level: options.level,
    base: options.base ?? { app: "reposcout" },
    // Redaction runs on the whole object, before pino's serializers see it.
    formatters: {
      log: (object) => redactSecrets(object) as Record<string, unknown>,
      bindings: (bindings) => redactSecrets(bindings) as Record<string, unknown>,
    },
    hooks: {
      // The message and its interpolation arguments are not part of the merge object either:
      // `logger.warn(\`failed: ${error.url}\`)` must not print an interaction token.
      logMethod(args, method) {
        const clean: unknown[] = args.map((arg: unknown) =>
          typeof arg === "string" ? scrubSecrets(arg) : arg,
        );
        // `logger.error(error)` takes its message from the error: give pino the scrubbed one.
        if (clean.length === 1 && clean[0] instanceof Error) clean.push(scrubSecrets(clean[0].message));
        method.apply(this, clean as Parameters<typeof method>);
      },
    },
    // redactSecrets already serialized every error; pino's default `err` serializer would do it
    // again on the plain copy and lose the error's type.
    serializers: { err: keepAsIs },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const destination = usePretty
    ? prettyStream()({
        colorize: true,
        translateTime: "SYS:HH:MM:ss",
        ignore: "pid,hostname,app",
        destination: options.destination ?? 1,
        sync: true,
      })
    : (options.destination ?? pino.destination({ dest: 1, sync: false }));
  return withRedactedChildBindings(pino(loggerOptions, destination as DestinationStream));
}

/**
 * pino-pretty, loaded only for a terminal: a deployment writes JSON and never uses it, and loading
 * it at start cost 68 ms and 10 MB of resident memory on the bench machine.
 */
function prettyStream(): typeof PinoPretty {
  return createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
}

function keepAsIs(value: unknown): unknown {
  return value;
}

/**
 * pino writes a child's bindings (`logger.child({ url })`) once, outside the merge object, and
 * ignores `formatters.bindings` for children. Redacting them on the way in holds for every child
 * and grandchild: they are made with `Object.create(parent)` and so inherit this `child`.
 */
function withRedactedChildBindings(root: Logger): Logger {
  const makeChild = root.child;
  const redactingChild: Logger["child"] = function (this: Logger, bindings, childOptions) {
    return makeChild.call(this, redactSecrets(bindings) as typeof bindings, childOptions);
  } as Logger["child"];
  root.child = redactingChild;
  return root;
}

const LEVEL_METHODS = new Set(["fatal", "error", "warn", "info", "debug", "trace"]);
const writeNothing = (): void => undefined;

/**
 * `parent.child(bindings())`, made only when a line is written through it: a child per interaction
 * costs its bindings' redaction and serialization up front (about 30 µs), and at the usual level an
 * interaction that goes well writes no line at all. A call at a level the parent does not write is
 * dropped without making the child; anything else (a line, `child`, `level`) makes it once and
 * goes to it. The bindings are read when the child is made: they must not change before then.
 */
export function lazyChild(parent: Logger, bindings: () => Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const made = (): Logger => (child ??= parent.child(bindings()));
  return new Proxy(parent, {
    get(_target, property) {
      if (child === undefined && typeof property === "string" && LEVEL_METHODS.has(property)) {
        if (!parent.isLevelEnabled(property)) return writeNothing;
      }
      const target = made();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, property, value) {
      return Reflect.set(made(), property, value);
    },
  });
}

/** A logger that writes nothing, for tests and tools that do not care about logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
