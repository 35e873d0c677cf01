import { configDefaults, defineConfig } from "vitest/config";

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
].map((name) => `test/e2e/${name}.test.ts`);

const E2E = "test/e2e/**/*.test.ts";
const only = process.env.REPOSCOUT_E2E_TRANSPORT;

export default defineConfig({
  test: {
    // One redis-server of the run's own for the Redis tests (or REDIS_TEST_URL), or a skip that says why.
    // Run once for the whole run, and provided to every project.
    globalSetup: ["test/redis/globalSetup.ts"],
    // Two cores: the e2e files start git processes and servers; two workers keep the machine responsive.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // One module graph per worker, not per file: loading discord.js, the GitHub schema and the
    // stand-ins again for each of 120 files cost about half of the run (unit tests: 106 s isolated,
    // 42 s not; the whole run about 200 s before). Every test builds its own world and state.
    isolate: false,
    reporters: ["default"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, E2E],
          ...timeouts,
        },
      },
      // The same end-to-end tests over each transport: the helpers read `inject("e2eTransport")`.
      ...(only === "http"
        ? []
        : [
            {
              test: {
                name: "e2e",
                include: [E2E],
                provide: { e2eTransport: "gateway" as const },
                ...timeouts,
              },
            },
          ]),
      ...(only === "gateway"
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
