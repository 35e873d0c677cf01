import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One redis-server of the run's own for the Redis tests (or REDIS_TEST_URL), or a skip that says why.
    globalSetup: ["test/redis/globalSetup.ts"],
    // Two cores: the e2e files start git processes and servers; two workers keep the machine responsive.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ["default"],
  },
});
