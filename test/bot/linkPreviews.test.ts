import { MessageType, type GatewayMessageUpdateDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { Asker } from "../../src/answers/scout.js";
import { createLinkPreviews } from "../../src/bot/linkPreviews.js";
import type { Services } from "../../src/bot/services.js";
import { memoryCoordination } from "../../src/cache/coordination.js";
import type { Stores } from "../../src/cache/openStores.js";
import type { ContentsAnswer } from "../../src/github/types.js";
import { silentLogger } from "../../src/logger.js";
import { describeWithRedis, useTwoProcessStores } from "../cache/helpers.js";

/**
 * The automatic previews' own bookkeeping, with the Discord REST client and the services as small
 * fakes: what the end-to-end tests cannot set up on purpose (an update that carries no text, a
 * flood of messages, a store that fails).
 */

const OID = "0123456789abcdef0123456789abcdef01234567";
const GUILD = "100000000000000001";
const CHANNEL = "100000000000000002";

function blob(): ContentsAnswer {
  return {
    kind: "blob",
    repository: {
      nameWithOwner: "demo/widgets",
      url: "https://github.com/demo/widgets",
      isPrivate: false,
      visibility: "PUBLIC",
      defaultBranch: "main",
    },
    commit: { oid: OID, url: "", committedDate: "2026-01-01T00:00:00Z" },
    path: "src/engine.ts",
    file: { kind: "text", text: "a\nb\nc\n", byteSize: 6, isTruncated: false },
  };
}

function setup(
  options: {
    slowReads?: Promise<void>;
    failingRecords?: boolean;
    /** The shared stores of a process (Redis); default this test's memory. */
    stores?: Pick<Stores, "coordination" | "ephemeral">;
  } = {},
) {
  const calls: Array<{ method: string; route: string; body?: unknown }> = [];
  const records = new Map<string, unknown>();
  const askers: Asker[] = [];
  let next = 500;
  const rest = {
    async post(route: string, init?: { body?: unknown }) {
      calls.push({ method: "POST", route, body: init?.body });
      return { id: String((next += 1)) };
    },
    async patch(route: string, init?: { body?: unknown }) {
      calls.push({ method: "PATCH", route, body: init?.body });
      return {};
    },
    async delete(route: string) {
      calls.push({ method: "DELETE", route });
      return undefined;
    },
  };
  const services = {
    config: { github: { webUrl: "https://github.com" } },
    settings: {
      getLinkPreviews: async () => true,
      getDefaultRepo: async () => undefined,
      getPrivateAnswersInChannel: async () => false,
    },
    scout: {
      async contents(asker: Asker) {
        askers.push(asker);
        await options.slowReads;
        return { value: blob(), freshness: { fetchedAt: new Date().toISOString(), fromCache: false } };
      },
    },
    previews: options.stores
      ? { claims: options.stores.coordination, replies: options.stores.ephemeral("previews") }
      : {
          claims: memoryCoordination(),
          replies: {
            async get(key: string) {
              if (options.failingRecords) throw new Error("store down");
              return records.get(key);
            },
            async set(key: string, value: unknown) {
              if (options.failingRecords) throw new Error("store down");
              records.set(key, value);
            },
            async delete(key: string) {
              return records.delete(key);
            },
          },
        },
  } as unknown as Services;
  const previews = createLinkPreviews({
    services,
    rest: rest as unknown as Parameters<typeof createLinkPreviews>[0]["rest"],
    logger: silentLogger(),
  });
  return { previews, calls, askers, records };
}

const message = (id: string, content: string, channel = CHANNEL) => ({
  id,
  channel_id: channel,
  guild_id: GUILD,
  content,
  type: MessageType.Default,
  author: { id: "300000000000000003", username: "ada", discriminator: "0", avatar: null, global_name: null },
});

const LINK = "https://github.com/demo/widgets/blob/main/src/engine.ts#L1-L2";

describe("automatic previews' bookkeeping", () => {
  it("leaves the preview alone on an update that carries no text (an embed Discord resolved later)", async () => {
    const { previews, calls } = setup();
    previews.messageCreated(message("1", LINK));
    await previews.idle();
    expect(calls.map((call) => call.method)).toEqual(["POST"]);
    previews.messageUpdated({
      id: "1",
      channel_id: CHANNEL,
      guild_id: GUILD,
    } as GatewayMessageUpdateDispatchData);
    await previews.idle();
    expect(calls.map((call) => call.method)).toEqual(["POST"]);
  });

  it("replies without a ping, to the message, and reads as the server, never the author", async () => {
    const { previews, calls, askers } = setup();
    previews.messageCreated(message("2", LINK));
    await previews.idle();
    expect(calls[0]?.body).toMatchObject({
      allowed_mentions: { parse: [], replied_user: false },
      message_reference: { message_id: "2", fail_if_not_exists: true },
    });
    expect(askers).toEqual([{ guildId: GUILD, userId: `previews:${GUILD}`, ownSignIn: false }]);
  });

  it("removes a preview whose message is deleted while it is being made, in that order", async () => {
    let release: () => void = () => undefined;
    const slowReads = new Promise<void>((resolve) => (release = resolve));
    const { previews, calls } = setup({ slowReads });
    previews.messageCreated(message("3", LINK));
    previews.messageDeleted({ id: "3", channel_id: CHANNEL, guild_id: GUILD });
    release();
    await previews.idle();
    expect(calls.map((call) => call.method)).toEqual(["POST", "DELETE"]);
  });

  it("works on at most 64 messages at once: a flood beyond that is skipped, nothing queued", async () => {
    let release: () => void = () => undefined;
    const slowReads = new Promise<void>((resolve) => (release = resolve));
    const { previews, askers, calls } = setup({ slowReads });
    for (let index = 0; index < 200; index += 1) {
      previews.messageCreated(
        message(`f${index}`, `${LINK} ${index}`, `1000000000000${String(index).padStart(5, "0")}`),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(askers.length).toBeLessThanOrEqual(64);
    release();
    await previews.idle();
    expect(calls.length).toBe(64);
  });

  it("still previews when the store of previews fails (it then cannot follow edits)", async () => {
    const { previews, calls } = setup({ failingRecords: true });
    previews.messageCreated(message("4", LINK));
    await previews.idle();
    expect(calls.map((call) => call.method)).toEqual(["POST"]);
  });

  it("costs nothing for a message without a URL or a #number", async () => {
    const { previews, askers, calls } = setup();
    previews.messageCreated(message("5", "good morning, everyone"));
    await previews.idle();
    expect([askers, calls]).toEqual([[], []]);
  });
});

describeWithRedis("automatic previews on two processes sharing one Redis", () => {
  const stores = useTwoProcessStores();

  it("keep the channel's 2-second gap together, and one follows the edit and delete of the other's preview", async () => {
    const [first, second] = stores();
    const a = setup({ stores: first });
    const b = setup({ stores: second });
    a.previews.messageCreated(message("10", LINK));
    await a.previews.idle();
    expect(a.calls.map((call) => call.method)).toEqual(["POST"]);
    // The same channel, at once, on the other process: the gap is shared, so no second reply.
    b.previews.messageCreated(message("11", "https://github.com/demo/widgets/blob/main/src/engine.ts#L3"));
    await b.previews.idle();
    expect(b.calls).toEqual([]);
    // The first message's edit and delete reach the other process (a shard moved): it finds the preview.
    b.previews.messageUpdated({
      ...message("10", "https://github.com/demo/widgets/blob/main/src/engine.ts#L2-L3"),
    } as GatewayMessageUpdateDispatchData);
    await b.previews.idle();
    b.previews.messageDeleted({ id: "10", channel_id: CHANNEL, guild_id: GUILD });
    await b.previews.idle();
    // The fake REST's first message id, the preview process A posted.
    const previewId = "501";
    expect(b.calls.map((call) => `${call.method} ${call.route}`)).toEqual([
      `PATCH /channels/${CHANNEL}/messages/${previewId}`,
      `DELETE /channels/${CHANNEL}/messages/${previewId}`,
    ]);
  });
});
