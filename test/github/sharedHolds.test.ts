import { beforeAll, expect, it } from "vitest";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { AuthLockoutError, SecondaryRateLimitError } from "../../src/github/errors.js";
import { storeHolds } from "../../src/github/sharedHolds.js";
import { silentLogger } from "../../src/logger.js";
import { REFUSING_REDIS_URL, describeWithRedis, useTwoProcessStores } from "../cache/helpers.js";
import { caught, clientWith, fakeFetch, json, NOW, TOKEN } from "./fakeGitHub.js";

/*
 * Two processes on one Redis (SPEC section 6): a secondary limit or a lockout one process meets
 * holds the other too, which then sends nothing with that token, as GitHub asks.
 */

const REPO = { owner: "demo", name: "widgets" };

describeWithRedis("rate-limit holds shared by two processes", () => {
  const stores = useTwoProcessStores();
  let first: Stores;
  let second: Stores;
  beforeAll(() => {
    [first, second] = stores();
  });

  it("a secondary limit met by one process holds the other: it fails at once, without a request", async () => {
    const limited = fakeFetch(() =>
      json(
        { message: "You have exceeded a secondary rate limit." },
        { status: 403, headers: { "retry-after": "120" } },
      ),
    );
    const untouched = fakeFetch(() => json([]));
    const one = clientWith(limited.fetch, { holds: storeHolds(first.cache("rate-holds"), () => NOW) }).client;
    const other = clientWith(untouched.fetch, {
      holds: storeHolds(second.cache("rate-holds"), () => NOW),
    }).client;

    const met = await caught(one.contributors(TOKEN, { repo: REPO, page: 1 }));
    expect(met).toBeInstanceOf(SecondaryRateLimitError);
    // The hold is written in the background; the other process reads it before its next call.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const held = await caught(other.contributors(TOKEN, { repo: REPO, page: 1 }));
    expect(held).toBeInstanceOf(SecondaryRateLimitError);
    expect((held as SecondaryRateLimitError).retryAt).toEqual((met as SecondaryRateLimitError).retryAt);
    expect(untouched.requests).toHaveLength(0);
  });

  it("a lockout is shared the same way, and another token is not held", async () => {
    const locked = fakeFetch(() =>
      json(
        { message: "Maximum number of login attempts exceeded. Please try again later." },
        { status: 403, headers: { "retry-after": "300" } },
      ),
    );
    const answering = fakeFetch(() => json([]));
    const token = `ghp_${"L".repeat(36)}`;
    const one = clientWith(locked.fetch, { holds: storeHolds(first.cache("rate-holds"), () => NOW) }).client;
    const other = clientWith(answering.fetch, {
      holds: storeHolds(second.cache("rate-holds"), () => NOW),
    }).client;
    expect(await caught(one.contributors(token, { repo: REPO, page: 1 }))).toBeInstanceOf(AuthLockoutError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await caught(other.contributors(token, { repo: REPO, page: 1 }))).toBeInstanceOf(AuthLockoutError);
    expect(answering.requests).toHaveLength(0);
    // A token nobody was held on still goes out.
    await other.contributors(`ghp_${"M".repeat(37)}`, { repo: REPO, page: 1 });
    expect(answering.requests).toHaveLength(1);
  });
});

it("a Redis that is down: the holds read as none, and calls go out", async () => {
  const stores = await openStores({
    dataDir: "unused",
    redisUrl: REFUSING_REDIS_URL,
    logger: silentLogger(),
    prefix: "down",
    redisConnectWaitMs: 50,
  });
  try {
    const answering = fakeFetch(() => json([]));
    const client = clientWith(answering.fetch, { holds: storeHolds(stores.cache("rate-holds")) }).client;
    await client.contributors(TOKEN, { repo: REPO, page: 1 });
    expect(answering.requests).toHaveLength(1);
  } finally {
    await stores.close();
  }
});
