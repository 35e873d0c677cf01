import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

/**
 * Discord's form checks the stand-in must make as Discord does (400, code 50035, the error at the
 * field's path): field types and the link button's URL limit, over the wire, on the routes the
 * bot uses to post in a channel or a thread.
 */

let discord: DiscordStandIn;

beforeAll(async () => {
  discord = await startDiscordStandIn();
});

afterAll(async () => {
  await discord?.close();
});

async function answer(response: Response) {
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Posts a JSON message in a channel (default #general) as the bot. */
async function post(body: Record<string, unknown>, channelId = discord.channels.text) {
  return answer(
    await fetch(`${discord.apiUrl}/v10/channels/${channelId}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${discord.botToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

/** Posts a message with one file (`files[0]`) in a channel, as discord.js's REST sends it. */
async function postWithFile(body: Record<string, unknown>, channelId: string) {
  const form = new FormData();
  form.append("payload_json", JSON.stringify(body));
  form.append("files[0]", new Blob(["line 1\n"], { type: "text/plain" }), "blame.txt");
  return answer(
    await fetch(`${discord.apiUrl}/v10/channels/${channelId}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${discord.botToken}` },
      body: form,
    }),
  );
}

/** The refusal Discord answers with one field error at `path`. */
function refusedAt(path: Array<string | number>, code: string) {
  let errors: Record<string, unknown> = { _errors: [expect.objectContaining({ code })] };
  for (const key of [...path].reverse()) errors = { [String(key)]: errors };
  return { status: 400, body: { code: 50035, message: "Invalid Form Body", errors } };
}

const linkButton = (url: string) => ({
  content: "links",
  components: [{ type: 1, components: [{ type: 2, style: 5, label: "Open", url }] }],
});

describe("the Discord stand-in checks field types and link URLs as Discord does", () => {
  it("takes a file's attachment id as a snowflake string, in a thread, and refuses the number 0", async () => {
    const thread = discord.channels.thread;
    const asNumber = await postWithFile(
      { content: "file", attachments: [{ id: 0, filename: "blame.txt" }] },
      thread,
    );
    expect(asNumber).toEqual(refusedAt(["attachments", 0, "id"], "NUMBER_TYPE_COERCE"));
    const asString = await postWithFile(
      { content: "file", attachments: [{ id: "0", filename: "blame.txt", description: "the lines" }] },
      thread,
    );
    expect(asString.status).toBe(200);
    expect(asString.body).toMatchObject({
      channel_id: thread,
      attachments: [{ filename: "blame.txt", description: "the lines", size: 7 }],
    });
  });

  it("allows a link button URL of 512 characters and refuses 513", async () => {
    const url = (length: number) => `https://github.com/${"a".repeat(length - "https://github.com/".length)}`;
    expect((await post(linkButton(url(512)))).status).toBe(200);
    expect(await post(linkButton(url(513)))).toEqual(
      refusedAt(["components", 0, "components", 0, "url"], "BASE_TYPE_MAX_LENGTH"),
    );
    // An embed's URL keeps Discord's 2,048 limit.
    expect((await post({ embeds: [{ title: "t", url: url(2048) }] })).status).toBe(200);
  });

  it("refuses allowed_mentions.users entries that are not snowflakes", async () => {
    const member = discord.users.member.id;
    expect((await post({ content: "hi", allowed_mentions: { users: [member] } })).status).toBe(200);
    for (const bad of ["alice", Number(member), "", "-1", "18446744073709551616"]) {
      expect(await post({ content: "hi", allowed_mentions: { users: [member, bad] } }), String(bad)).toEqual(
        refusedAt(["allowed_mentions", "users", 1], "NUMBER_TYPE_COERCE"),
      );
    }
    expect(await post({ content: "hi", allowed_mentions: { roles: [{ id: "1" }] } })).toEqual(
      refusedAt(["allowed_mentions", "roles", 0], "NUMBER_TYPE_COERCE"),
    );
  });

  it("refuses allowed_mentions.replied_user that is not a boolean", async () => {
    expect((await post({ content: "hi", allowed_mentions: { parse: [], replied_user: false } })).status).toBe(
      200,
    );
    for (const bad of ["false", 0, 1, {}]) {
      expect(await post({ content: "hi", allowed_mentions: { parse: [], replied_user: bad } })).toEqual(
        refusedAt(["allowed_mentions", "replied_user"], "BASE_TYPE_BOOLEAN"),
      );
    }
  });

  it("refuses an embed field's inline that is not a boolean", async () => {
    const embed = (inline: unknown) => ({
      embeds: [
        {
          fields: [
            { name: "n", value: "v" },
            { name: "a", value: "b", inline },
          ],
        },
      ],
    });
    expect((await post(embed(true))).status).toBe(200);
    expect(await post(embed("true"))).toEqual(
      refusedAt(["embeds", 0, "fields", 1, "inline"], "BASE_TYPE_BOOLEAN"),
    );
  });

  it("refuses a button's disabled that is not a boolean", async () => {
    const buttons = (disabled: unknown) => ({
      content: "buttons",
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 2, label: "Previous", custom_id: "prev", disabled: true },
            { type: 2, style: 2, label: "Next", custom_id: "next", disabled },
          ],
        },
      ],
    });
    expect((await post(buttons(false))).status).toBe(200);
    expect(await post(buttons(1))).toEqual(
      refusedAt(["components", 0, "components", 1, "disabled"], "BASE_TYPE_BOOLEAN"),
    );
    const link = linkButton("https://github.com/demo/widgets");
    const row = link.components[0]!;
    row.components[0] = { ...row.components[0]!, disabled: "yes" } as (typeof row.components)[0];
    expect(await post(link)).toEqual(
      refusedAt(["components", 0, "components", 0, "disabled"], "BASE_TYPE_BOOLEAN"),
    );
  });
});
