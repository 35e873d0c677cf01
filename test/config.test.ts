import { describe, expect, it } from "vitest";
import { ConfigError, graphqlUrlFromRestUrl, loadConfig, webUrlFromRestUrl } from "../src/config.js";

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
