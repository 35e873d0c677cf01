import { describe, expect, it } from "vitest";
import {
  CONFIG_VARIABLES,
  ConfigError,
  graphqlUrlFromRestUrl,
  loadConfig,
  webUrlFromRestUrl,
} from "../src/config.js";
import { startWarnings } from "../src/startWarnings.js";

const KEY = Buffer.alloc(32, 7).toString("base64");

function problemsOf(env: Record<string, string | undefined>): Array<{ variable: string; message: string }> {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("applies every default to an empty environment (the sandbox case)", () => {
    const config = loadConfig({});
    expect(config.discord.token).toBeUndefined();
    expect(config.discord.apiUrl).toBe("https://discord.com/api");
    expect(config.github.apiUrl).toBe("https://api.github.com");
    expect(config.github.graphqlUrl).toBe("https://api.github.com/graphql");
    expect(config.github.webUrl).toBe("https://github.com");
    expect(config.dataDir).toBe("./data");
    expect(config.redisUrl).toBeUndefined();
    expect(config.logLevel).toBe("info");
    expect(config.cache.shortTtlSeconds).toBe(60);
    expect(config.tokens.encryptionKey).toBeUndefined();
  });

  it("treats empty strings from a .env file as unset", () => {
    const config = loadConfig({ DISCORD_TOKEN: "", GITHUB_API_URL: "", REDIS_URL: " ", LOG_LEVEL: "" });
    expect(config.discord.token).toBeUndefined();
    expect(config.github.apiUrl).toBe("https://api.github.com");
    expect(config.redisUrl).toBeUndefined();
    expect(config.logLevel).toBe("info");
  });

  it("derives the Enterprise Server GraphQL endpoint and web host from /api/v3", () => {
    const config = loadConfig({ GITHUB_API_URL: "https://ghe.example.com/api/v3/" });
    expect(config.github.apiUrl).toBe("https://ghe.example.com/api/v3");
    expect(config.github.graphqlUrl).toBe("https://ghe.example.com/api/graphql");
    expect(config.github.webUrl).toBe("https://ghe.example.com");
  });

  it("keeps an explicit GraphQL URL", () => {
    const config = loadConfig({
      GITHUB_API_URL: "http://127.0.0.1:9000",
      GITHUB_GRAPHQL_URL: "http://127.0.0.1:9000/graphql",
    });
    expect(config.github.graphqlUrl).toBe("http://127.0.0.1:9000/graphql");
  });

  it("decodes a 32-byte base64 encryption key", () => {
    const config = loadConfig({ TOKEN_ENCRYPTION_KEY: KEY });
    expect(config.tokens.encryptionKey).toEqual(Buffer.alloc(32, 7));
  });

  it("reports every invalid variable at once, by name", () => {
    const problems = problemsOf({
      DISCORD_CLIENT_ID: "not-a-snowflake",
      DISCORD_GUILD_ID: "12",
      DISCORD_API_URL: "discord.com",
      GITHUB_API_URL: "ftp://example.com",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(16).toString("base64"),
      REDIS_URL: "http://127.0.0.1:6379",
      LOG_LEVEL: "loud",
      CACHE_SHORT_TTL_SECONDS: "0",
    });
    const variables = problems.map((problem) => problem.variable).sort();
    expect(variables).toEqual(
      [
        "CACHE_SHORT_TTL_SECONDS",
        "DISCORD_API_URL",
        "DISCORD_CLIENT_ID",
        "DISCORD_GUILD_ID",
        "GITHUB_API_URL",
        "LOG_LEVEL",
        "REDIS_URL",
        "TOKEN_ENCRYPTION_KEY",
      ].sort(),
    );
    expect(problems.find((p) => p.variable === "TOKEN_ENCRYPTION_KEY")?.message).toMatch(/32 bytes/);
  });

  it("names the variables in the error message and never echoes a secret's value", () => {
    const secret = "c2VjcmV0LXRoYXQtaXMtbm90LTMyLWJ5dGVz";
    try {
      loadConfig({ TOKEN_ENCRYPTION_KEY: secret, LOG_LEVEL: "loud" });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("TOKEN_ENCRYPTION_KEY");
      expect(message).toContain("LOG_LEVEL");
      expect(message).not.toContain(secret);
    }
  });
});

describe("sign-in, privacy, cache bound and transports (SPEC section 5)", () => {
  it("defaults: no sign-in, public-only default token, a 0.2 share, 512 MB, gateway with every shard", () => {
    const config = loadConfig({});
    expect(config.github.oauth).toEqual({ clientId: undefined, clientSecret: undefined });
    expect(config.github.defaultTokenAllowPrivate).toBe(false);
    expect(config.github.defaultTokenShare).toBe(0.2);
    expect(config.cache.maxMb).toBe(512);
    expect(config.discord.publicKey).toBeUndefined();
    expect(config.discord.shards).toEqual({ ids: undefined, count: undefined });
    expect(config.http.port).toBeUndefined();
  });

  it("reads every variable in the forms a .env file holds", () => {
    const publicKey = "AB".repeat(32);
    const config = loadConfig({
      GITHUB_WEB_URL: "https://ghe.corp/",
      GITHUB_OAUTH_CLIENT_ID: "Iv1.0123456789abcdef",
      GITHUB_OAUTH_CLIENT_SECRET: "s3cret",
      GITHUB_TOKEN_ALLOW_PRIVATE: "TRUE",
      DEFAULT_TOKEN_SHARE: "0.5",
      CACHE_MAX_MB: "64",
      DISCORD_PUBLIC_KEY: publicKey,
    });
    expect(config.github.webUrl).toBe("https://ghe.corp");
    expect(config.github.oauth).toEqual({ clientId: "Iv1.0123456789abcdef", clientSecret: "s3cret" });
    expect(config.github.defaultTokenAllowPrivate).toBe(true);
    expect(config.github.defaultTokenShare).toBe(0.5);
    expect(config.cache.maxMb).toBe(64);
    expect(config.discord.publicKey).toBe("ab".repeat(32));
    // HTTP mode listens on 8080 unless told otherwise.
    expect(config.http.port).toBe(8080);
    expect(loadConfig({ DISCORD_PUBLIC_KEY: publicKey, HTTP_PORT: "9000" }).http.port).toBe(9000);
    expect(loadConfig({ HTTP_PORT: "9100" }).http.port).toBe(9100);
  });

  it("reads METRICS_PORT, which may not be the public interactions port in HTTP mode", () => {
    const publicKey = "ab".repeat(32);
    expect(loadConfig({ DISCORD_PUBLIC_KEY: publicKey, METRICS_PORT: "9090" }).http).toEqual({
      port: 8080,
      metricsPort: 9090,
    });
    expect(loadConfig({}).http.metricsPort).toBeUndefined();
    // Gateway mode: the same port as HTTP_PORT is one server for the operator.
    expect(loadConfig({ HTTP_PORT: "9100", METRICS_PORT: "9100" }).http.metricsPort).toBe(9100);
    for (const env of [
      { DISCORD_PUBLIC_KEY: publicKey, METRICS_PORT: "8080" },
      { DISCORD_PUBLIC_KEY: publicKey, HTTP_PORT: "9000", METRICS_PORT: "9000" },
    ]) {
      expect(() => loadConfig(env)).toThrow(/METRICS_PORT: must differ from the public interactions port/);
    }
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
  });

  it("reads shard lists and ranges out of a total", () => {
    expect(loadConfig({ DISCORD_SHARDS: "0,1", DISCORD_SHARD_COUNT: "4" }).discord.shards).toEqual({
      ids: [0, 1],
      count: 4,
    });
    expect(loadConfig({ DISCORD_SHARDS: "4-6, 2", DISCORD_SHARD_COUNT: "8" }).discord.shards.ids).toEqual([
      2, 4, 5, 6,
    ]);
  });

  it("reads DISCORD_MESSAGE_CONTENT as a flag, off by default, and refuses anything else by name", () => {
    expect(loadConfig({}).discord.messageContent).toBe(false);
    expect(loadConfig({ DISCORD_MESSAGE_CONTENT: "true" }).discord.messageContent).toBe(true);
    expect(problemsOf({ DISCORD_MESSAGE_CONTENT: "yes please" }).map((problem) => problem.variable)).toEqual([
      "DISCORD_MESSAGE_CONTENT",
    ]);
    // Over HTTP no message arrives: the operator hears that the flag does nothing there.
    const http = loadConfig({ DISCORD_MESSAGE_CONTENT: "true", DISCORD_PUBLIC_KEY: "ab".repeat(32) });
    expect(startWarnings(http).join("\n")).toContain(
      "DISCORD_MESSAGE_CONTENT=true has no effect with DISCORD_PUBLIC_KEY",
    );
    expect(startWarnings(loadConfig({ DISCORD_MESSAGE_CONTENT: "true" })).join("\n")).not.toContain(
      "DISCORD_MESSAGE_CONTENT",
    );
  });

  it("refuses what cannot work, by name", () => {
    const problems = problemsOf({
      DISCORD_SHARDS: "0,5",
      DISCORD_SHARD_COUNT: "4",
      DEFAULT_TOKEN_SHARE: "1.5",
      GITHUB_TOKEN_ALLOW_PRIVATE: "maybe",
      DISCORD_PUBLIC_KEY: "not-hex",
      CACHE_MAX_MB: "0",
    }).map((problem) => problem.variable);
    expect(problems.sort()).toEqual(
      ["CACHE_MAX_MB", "DEFAULT_TOKEN_SHARE", "DISCORD_PUBLIC_KEY", "GITHUB_TOKEN_ALLOW_PRIVATE"].sort(),
    );
    expect(problemsOf({ DISCORD_SHARDS: "0,5", DISCORD_SHARD_COUNT: "4" })[0]?.message).toMatch(
      /shard 5 is not below DISCORD_SHARD_COUNT/,
    );
    expect(problemsOf({ DISCORD_SHARDS: "0" })[0]?.message).toMatch(/needs DISCORD_SHARD_COUNT/);
    expect(problemsOf({ GITHUB_OAUTH_CLIENT_SECRET: "x" })[0]?.variable).toBe("GITHUB_OAUTH_CLIENT_SECRET");
    expect(problemsOf({ DISCORD_PUBLIC_KEY: "ab".repeat(32), DISCORD_SHARD_COUNT: "2" })[0]?.variable).toBe(
      "DISCORD_SHARDS",
    );
  });
});

describe("what a wrong value is told", () => {
  it.each([
    ["CACHE_SHORT_TTL_SECONDS", "a minute", /^must be a whole number of seconds from 1 to 86400, like 60$/],
    ["CACHE_SHORT_TTL_SECONDS", "1.5", /whole number of seconds/],
    ["DEFAULT_TOKEN_SHARE", "20%", /^must be a share from 0 to 1, like 0\.2$/],
    ["CACHE_MAX_MB", "1GB", /^must be a number of megabytes from 1 to 1048576, like 512$/],
    ["HTTP_PORT", "http", /^must be a port number from 0 to 65535, like 8080$/],
    ["HTTP_PORT", "70000", /port number/],
    ["DISCORD_SHARD_COUNT", "-2", /^must be a whole number of shards from 1 to 65536, like 4$/],
    ["LOG_LEVEL", "loud", /^must be one of fatal, error, warn, info, debug, trace or silent$/],
  ])("%s=%s: a sentence with the form the variable takes", (variable, value, message) => {
    const problems = problemsOf({ [variable]: value });
    expect(problems).toEqual([{ variable, message: expect.stringMatching(message) }]);
  });

  it("never passes on zod's own wording, whatever the variable and the mistake", () => {
    for (const variable of CONFIG_VARIABLES)
      for (const value of ["abc", "-1", "1e3", "99999999999", "0x10", "true"]) {
        let problems: Array<{ variable: string; message: string }> = [];
        try {
          loadConfig({
            [variable]: value,
            DISCORD_SHARD_COUNT: variable === "DISCORD_SHARDS" ? "4" : undefined,
          });
        } catch (error) {
          problems = [...(error as ConfigError).problems];
        }
        for (const problem of problems)
          expect(problem.message, `${variable}=${value}`).not.toMatch(
            /Invalid|expected|received|NaN|Too (small|big)/,
          );
      }
  });
});

describe("URL derivation", () => {
  it.each([
    ["https://api.github.com", "https://api.github.com/graphql", "https://github.com"],
    ["https://ghe.corp/api/v3", "https://ghe.corp/api/graphql", "https://ghe.corp"],
    ["http://127.0.0.1:4000", "http://127.0.0.1:4000/graphql", "http://127.0.0.1:4000"],
  ])("%s", (rest, graphql, web) => {
    expect(graphqlUrlFromRestUrl(rest)).toBe(graphql);
    expect(webUrlFromRestUrl(rest)).toBe(web);
  });
});
