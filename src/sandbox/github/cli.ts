/**
 * `npm run standin -- [--port N] [--latency MS] [--data DIR] [--rate-limit N] [--fault SPEC]...`
 *
 * Starts the GitHub stand-in alone with the demo world and prints where it listens and the demo
 * token. While it runs, lines typed on stdin change it: `latency MS`, `fault SPEC`, `clear`,
 * `requests`. Stops cleanly on SIGINT or SIGTERM.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { DEMO_APPS, DEMO_TOKEN, OTHER_TOKEN } from "./demoConstants.js";
import { parseFaultSpec } from "./faults.js";
import { startGitHubStandIn, type GitHubStandIn } from "./server.js";

const USAGE = `Usage: npm run standin -- [--port N] [--latency MS] [--data DIR] [--rate-limit N] [--fault SPEC]...
  SPEC: KIND[:TARGET[:TIMES]], KIND = 401 | 403 | 429 | 502 | 500 | reset | hang | latency=MS,
        TARGET = graphql | rest | both (default both), TIMES default 1. Example: --fault 502:graphql:2
While running, type: latency MS | fault SPEC | clear | requests`;

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(`--${name} takes a whole number, not "${value}"`);
  return number;
}

function command(standIn: GitHubStandIn, line: string): void {
  const [verb = "", argument = ""] = line.trim().split(/\s+/, 2);
  try {
    if (verb === "") return;
    if (verb === "latency") {
      standIn.setLatency(integer("latency", argument, 0));
      console.log(`latency: ${argument} ms`);
    } else if (verb === "fault") {
      standIn.faults.inject(parseFaultSpec(argument));
      console.log(`queued: ${argument}`);
    } else if (verb === "clear") {
      standIn.faults.clear();
      console.log("faults cleared");
    } else if (verb === "requests") {
      for (const entry of standIn.requests) {
        console.log(`${entry.at} ${entry.method} ${entry.path} ${entry.status} ${entry.operationName ?? ""}`);
      }
    } else {
      console.log("commands: latency MS | fault SPEC | clear | requests");
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      latency: { type: "string" },
      data: { type: "string" },
      "rate-limit": { type: "string" },
      fault: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const faults = (values.fault ?? []).map(parseFaultSpec);
  const started = performance.now();
  const standIn = await startGitHubStandIn({
    port: integer("port", values.port, 0),
    latencyMs: integer("latency", values.latency, 0),
    rateLimit: integer("rate-limit", values["rate-limit"], 5000),
    ...(values.data ? { dataDir: values.data } : {}),
  });
  for (const fault of faults) standIn.faults.inject(fault);

  console.log(`GitHub stand-in ready in ${Math.round(performance.now() - started)} ms`);
  console.log(`  GraphQL:  ${standIn.graphqlUrl}   (Enterprise style: ${standIn.enterpriseGraphqlUrl})`);
  console.log(`  REST:     ${standIn.restUrl}   (Enterprise style: ${standIn.enterpriseRestUrl})`);
  console.log(`  Token:    ${DEMO_TOKEN}   (demo-user; other-user: ${OTHER_TOKEN})`);
  console.log(
    `  Sign-in:  ${standIn.webUrl}/login/device  (OAuth app ${DEMO_APPS.oauthApp.clientId}, GitHub App ${DEMO_APPS.githubApp.clientId})`,
  );
  console.log(
    `  Try:      curl -H "Authorization: bearer ${DEMO_TOKEN}" ${standIn.restUrl}/repos/demo/widgets/contributors`,
  );

  const input = createInterface({ input: process.stdin, terminal: false });
  input.on("line", (line) => command(standIn, line));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    input.close();
    standIn.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
