import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirst } from "./test/order/sequencer.js";

const timeouts = { testTimeout: 20_000, hookTimeout: 60_000 };

/**
 * The end-to-end files the HTTP pass runs: those that exercise what differs between the two
 * transports: the first response in the HTTP reply or the callback route, deferrals, edits,
 * deletions and follow-ups (router, privacy, logLeaks), ephemeral answers and pages to the
 * presser alone (privacy), threads started from a reply read back (router), buttons (privacy),
 * modals (token), autocomplete, errors (router), sign-in's later edit and a stop while it waits
 * (login), the entry point's choice and a stop while answering (lifecycle), acknowledgements
 * under a burst (burst), readiness and metrics (operations). The others (what a
 * command answers) run the same core over either transport and run over the gateway only, which
 * keeps the HTTP pass to about a third of the end-to-end time. A file in a first response
 * (multipart) and every refusal of the endpoint are in test/bot/http. REPOSCOUT_E2E_TRANSPORT=http
 * runs every end-to-end file over HTTP (and =gateway runs none over HTTP).
 */
const HTTP_PASS = [
  "router",
  "autocomplete",
  "privacy",
  "login",
  "token",
  "logLeaks",
  "lifecycle",
  "burst",
  "operations",
  "messageMenus",
  "clockAhead",
].map((name) => `test/e2e/${name}.test.ts`);

const E2E = "test/e2e/**/*.test.ts";
const only = process.env.REPOSCOUT_E2E_TRANSPORT;
const overGateway = only !== "http" && only !== "none";

export default defineConfig({
  test: {
    // One redis-server of the run's own for the Redis tests (or REDIS_TEST_URL), or a skip that says why.
    // Run once for the whole run, and provided to every project.
    globalSetup: ["test/redis/globalSetup.ts"],
    // Three workers on two cores: the files wait more than they compute (a run keeps the cores 44%
    // busy with two workers), so a third fills the waits: 110 s → 85 s here, and 128 s with two
    // CPU-bound processes competing for the cores. minForks = maxForks: with fewer kept, tinypool
    // rejects "Terminating worker thread" when it recycles workers between projects.
    pool: "forks",
    poolOptions: { forks: { maxForks: 3, minForks: 3 } },
    // One module graph per worker, not per file: loading discord.js, the GitHub schema and the
    // stand-ins again for each of 120 files cost about half of the run (unit tests: 106 s isolated,
    // 42 s not; the whole run about 200 s before). Every test builds its own world and state.
    isolate: false,
    // Each project's files longest first, from vitest's cache or, on a fresh clone, the committed
    // durations: a long file started last runs alone while the other workers idle.
    sequence: { sequencer: LongestFirst },
    reporters: ["default"],
    // Vitest runs one project's files at a time: it waits for the project's last file, then starts
    // new workers for the next, which import everything again (about 4 s each time). So the unit
    // tests and the end-to-end files over the gateway are one project, whose short unit files fill
    // the workers' tail; the HTTP pass is the second. REPOSCOUT_E2E_TRANSPORT=none runs the unit
    // tests alone. The end-to-end helpers read `inject("e2eTransport")`.
    projects: [
      {
        test: {
          name: overGateway ? "unit+e2e" : "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...(overGateway ? [] : [E2E])],
          provide: { e2eTransport: "gateway" as const },
          ...timeouts,
        },
      },
      ...(only === "gateway" || only === "none"
        ? []
        : [
            {
              test: {
                name: "e2e-http",
                include: only === "http" ? [E2E] : HTTP_PASS,
                provide: { e2eTransport: "http" as const },
                ...timeouts,
              },
            },
          ]),
    ],
  },
});
