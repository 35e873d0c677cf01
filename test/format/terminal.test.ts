import { describe, expect, it } from "vitest";
import { formatBlame } from "../../src/format/blame.js";
import { formatError } from "../../src/format/error.js";
import type { FormattedMessage } from "../../src/format/message.js";
import { listChoices, relativeTime, renderForTerminal } from "../../src/format/terminal.js";
import { formatWhoami } from "../../src/format/whoami.js";
import { CACHED, makeBlame, makeCommit, makeLines, NOW } from "./fixtures.js";

describe("relativeTime", () => {
  const ago = (ms: number) => relativeTime(new Date(NOW.getTime() - ms), NOW);
  it("reads like Discord's relative timestamps", () => {
    expect(ago(10_000)).toBe("a few seconds ago");
    expect(ago(5 * 60_000)).toBe("5 minutes ago");
    expect(ago(3 * 3_600_000)).toBe("3 hours ago");
    expect(ago(3 * 86_400_000)).toBe("3 days ago");
    expect(ago(3 * 365 * 86_400_000)).toBe("3 years ago");
    expect(relativeTime(new Date(NOW.getTime() + 2 * 3_600_000), NOW)).toBe("in 2 hours");
  });
});

describe("renderForTerminal", () => {
  const commit = makeCommit(1, {
    authoredDate: "2022-06-01T12:00:00Z",
    authorLogin: "alice",
    messageHeadline: "Fix *stars* and [links](https://evil.example)",
  });
  const answer = makeBlame({
    lines: ["const a = '```';", ...makeLines(200, 60)],
    ranges: [{ startingLine: 1, endingLine: 201, age: 10, commit }],
  });
  const message = formatBlame(
    answer,
    { startLine: 1, endLine: 201, requestedLines: true },
    { freshness: CACHED, now: NOW, buttons: { next: "blame:n" } },
  );
  const plain = renderForTerminal(message, { color: false, now: NOW, width: 40 });

  it("shows the title, URL, code, fields with relative dates and the footer, without markdown syntax", () => {
    expect(plain).toContain("┃ blame octo/widgets src/app.ts\n");
    expect(plain).toContain("https://github.com/octo/widgets/blob/");
    expect(plain).toContain("╭─ code (ts)");
    expect(plain).toContain("│   1 🟦 ");
    expect(plain).toContain("const a = '```';");
    expect(plain).toContain(
      "Fix *stars* and [links](https://evil.example) <https://github.com/octo/widgets/commit/",
    );
    expect(plain).toContain("by alice · 3 years ago");
    expect(plain).toContain("cached 11 min ago · pinned to a1b2c3d");
    expect(plain).not.toContain("\u200b");
    expect(plain).not.toContain("```ts");
  });

  it("lists attachments by name and size and buttons as numbered choices", () => {
    expect(plain).toMatch(/📎 blame-app\.ts-L1-201\.txt \(\d+\.\d KiB\)/);
    expect(plain).toContain("[1] ◀ Previous lines (unavailable)");
    expect(plain).toContain("[2] Next lines ▶\n");
    expect(plain).toMatch(/\[3\] Open on GitHub → https:\/\/github\.com\//);
    expect(plain.split("\n")[0]).toBe("─".repeat(40));
    expect(listChoices(message)).toMatchObject([
      { number: 1, disabled: true },
      { number: 2, customId: "blame:n", disabled: false },
      { number: 3, url: expect.stringContaining("https://") },
    ]);
  });

  it("uses ANSI colours only when asked", () => {
    expect(plain).not.toContain("\u001b[");
    const colored = renderForTerminal(message, { color: true, now: NOW });
    expect(colored).toContain("\u001b[1m");
    expect(colored).toContain("\u001b[38;2;");
  });

  it("never passes a repository's escape sequences to the terminal", () => {
    const hostile = makeBlame({ lines: ["\u001b[2J\u001b]0;pwned\u0007 text"] });
    const rendered = renderForTerminal(
      formatBlame(
        hostile,
        { startLine: 1, endLine: 1, requestedLines: false },
        { freshness: CACHED, now: NOW },
      ),
      { color: false, now: NOW },
    );
    expect(rendered).not.toContain("\u001b");
    expect(rendered).not.toContain("\u0007");
    expect(rendered).toContain("␛[2J");
  });

  it("renders content, bold and inline code of short messages", () => {
    const whoami = renderForTerminal(
      formatWhoami({ login: "octo_bot", rateLimit: null }, { origin: "default", now: NOW }),
      { color: false, now: NOW },
    );
    expect(whoami).toContain("Commands here use GitHub as octo_bot.");
    const error = renderForTerminal(formatError("Run `/token set` first."), { color: false, now: NOW });
    expect(error).toContain("⚠️ Run /token set first.");
    const content = renderForTerminal(
      {
        content: "🧵 **/blame** x — answer in the thread",
        embeds: [],
        components: [],
        files: [],
        allowedMentions: { parse: [] },
      },
      { color: false, now: NOW },
    );
    expect(content).toContain("🧵 /blame x — answer in the thread");
  });
});

describe("renderForTerminal: mentions", () => {
  const message: FormattedMessage = {
    content: "Set by <@1575> and <@!1575>; also <@999>.",
    embeds: [{ description: "Reviewed by <@2000>." }],
    files: [],
    components: [],
    allowedMentions: { parse: [] },
  };

  it("reads a user mention as the name Discord shows, and an unknown user by id", () => {
    const names: Record<string, string> = {
      "1575": "Ada",
      "2000": "**Bold** [x](https://evil.example)\u001b[2J",
    };
    const text = renderForTerminal(message, { color: false, now: NOW, userName: (id) => names[id] });
    expect(text).toContain("Set by @Ada and @Ada; also @user:999.");
    // A name is drawn as typed: its markdown stays characters, its escape sequence is visible.
    expect(text).toContain("Reviewed by @**Bold** [x](https://evil.example)␛[2J.");
  });

  it("keeps @user:<id> without a way to name users", () => {
    expect(renderForTerminal(message, { color: false, now: NOW })).toContain(
      "Set by @user:1575 and @user:1575",
    );
  });
});
