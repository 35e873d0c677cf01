import { describe, expect, it } from "vitest";
import { privateAnswerNote, type PrivateDelivery } from "../../src/format/privacy.js";
import { formatLinkPreviewsChanged, formatSettings, type SettingsView } from "../../src/format/settings.js";
import { expectValidMessage } from "./checks.js";

const DELIVERIES: PrivateDelivery[] = [
  "onlyYou",
  "onlyYouNoThread",
  "onlyYouHere",
  "inChannel",
  "directMessage",
];

describe("the line that goes with a private answer", () => {
  it("names an internal repository as internal, and a page of a list by how many private ones it holds", () => {
    expect(
      privateAnswerNote(
        { kind: "repository", nameWithOwner: "acme/handbook", visibility: "INTERNAL" },
        "onlyYou",
      ),
    ).toMatch(
      /^-# 🔒 Only you can see this: `acme\/handbook` is internal \(its enterprise's members only\)\./,
    );
    expect(privateAnswerNote({ kind: "list", owner: "demo", privateCount: 1 }, "onlyYou")).toMatch(
      /this page lists a private repository\./,
    );
    expect(privateAnswerNote({ kind: "list", owner: "demo", privateCount: 3 }, "inChannel")).toMatch(
      /^-# 🔒 Private: this page lists 3 private repositories\./,
    );
  });

  it("stays one short line, whatever the name holds", () => {
    for (const name of ["a`b/``c", "x/@everyone <@123>", `${"n".repeat(300)}/r`, "o/\nline"]) {
      for (const delivery of DELIVERIES) {
        const note = privateAnswerNote(
          { kind: "repository", nameWithOwner: name, visibility: "PRIVATE" },
          delivery,
        );
        expect(note).not.toContain("\n");
        expect(note.length).toBeLessThan(400);
        // The name sits in inline code: it cannot ping or end the code span early.
        expect(note).toMatch(/^-# 🔒 [^`]*(`[^`]|``)/);
      }
    }
  });
});

describe("/settings show", () => {
  const view: SettingsView = {
    threads: false,
    privateAnswersInChannel: false,
    updatedAt: undefined,
    origin: "default",
    serverTokenLogin: undefined,
    defaultTokenAllowPrivate: false,
    linkPreviews: false,
    previewReach: "messages",
  };
  const text = (message: ReturnType<typeof formatSettings>) => message.embeds[0]?.description ?? "";

  it("prints every setting, the defaults when none was changed, and the command that changes each", () => {
    const message = formatSettings(view);
    expectValidMessage(message);
    expect(message.embeds[0]?.title).toBe("Settings of this server");
    expect(text(message)).toContain("**Threads**: `off`");
    expect(text(message)).toContain("`/settings threads`");
    expect(text(message)).toContain("**Private answers**: `asker only`");
    expect(text(message)).toContain("`/settings private-answers`");
    expect(text(message)).toMatch(
      /Token in effect for you\*\*: `default`: the bot's shared token, which reads public repositories only/,
    );
    expect(text(message)).toContain("these are the defaults");
  });

  it("prints the server's token by its login, the settings as changed, and when", () => {
    const message = formatSettings({
      ...view,
      threads: true,
      privateAnswersInChannel: true,
      updatedAt: "2025-06-01T12:00:00Z",
      origin: "server",
      serverTokenLogin: "demo-user",
    });
    expect(text(message)).toContain("**Threads**: `on`");
    expect(text(message)).toContain("**Private answers**: `in-channel`");
    expect(text(message)).toContain("`server`: this server's token, as **demo\\-user**");
    expect(text(message)).toContain(`Last changed <t:${Date.parse("2025-06-01T12:00:00Z") / 1000}:R>`);
  });

  it("says when there is no token at all, and when the default token may read private repositories", () => {
    expect(text(formatSettings({ ...view, origin: undefined }))).toMatch(/none: .*`\/token set`/);
    expect(text(formatSettings({ ...view, defaultTokenAllowPrivate: true }))).toMatch(
      /operator lets it read private repositories/,
    );
    expect(text(formatSettings({ ...view, origin: "user" }))).toContain("`you`: your own GitHub sign-in");
  });
});

describe("/settings link-previews", () => {
  const text = (message: ReturnType<typeof formatLinkPreviewsChanged>) =>
    message.embeds[0]?.description ?? "";

  it("confirms the change and, where the bot hears messages, says nothing of why not", () => {
    const on = formatLinkPreviewsChanged(true, "messages");
    expectValidMessage(on);
    expect(text(on)).toContain("now **on**");
    expect(text(on)).not.toContain("⚠️");
    expect(text(formatLinkPreviewsChanged(false, "http"))).toBe(
      "Automatic link previews are now **off** here.",
    );
  });

  it("says why no preview will appear over HTTP, and without the Message Content intent", () => {
    expect(text(formatLinkPreviewsChanged(true, "http"))).toMatch(/over HTTP, which carries no messages/);
    expect(text(formatLinkPreviewsChanged(true, "noIntent"))).toMatch(/`DISCORD_MESSAGE_CONTENT=true`/);
  });

  it("is listed by /settings show, with the reason when it cannot take effect", () => {
    const base: SettingsView = {
      threads: false,
      privateAnswersInChannel: false,
      updatedAt: undefined,
      origin: "default",
      serverTokenLogin: undefined,
      defaultTokenAllowPrivate: false,
      linkPreviews: false,
      previewReach: "http",
    };
    const show = (view: SettingsView) => formatSettings(view).embeds[0]?.description ?? "";
    expect(show(base)).toContain("**Link previews**: `off`.");
    expect(show({ ...base, linkPreviews: true, previewReach: "messages" })).toContain(
      "**Link previews**: `on`",
    );
    expect(show({ ...base, linkPreviews: true })).toMatch(
      /Link previews.*over HTTP, which carries no messages/,
    );
  });
});
