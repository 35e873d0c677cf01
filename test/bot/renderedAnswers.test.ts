import { describe, expect, it, vi } from "vitest";
import type { OwnersAnswer } from "../../src/answers/ownershipAnswers.js";
import type { Fetched } from "../../src/answers/scout.js";
import { createButtonStateStore } from "../../src/bot/buttonState.js";
import type { CommandRequest } from "../../src/bot/commandModule.js";
import { createRenderedAnswers } from "../../src/bot/renderedAnswers.js";
import type { Services } from "../../src/bot/services.js";
import type { FormattedMessage } from "../../src/format/message.js";
import type { BlameAnswer } from "../../src/github/types.js";
import { selectFiles } from "../../src/owners/selectFiles.js";
import { command as blame } from "../../commands/blame.js";
import { command as owners } from "../../commands/owners.js";
import { CACHED, makeBlame, makeLines, NOW, PINNED, REPOSITORY } from "../format/fixtures.js";

// No module mocks: the unit tests share one module graph (vitest.config.ts, isolate: false), so a
// render is counted by the store (each count is one call of the formatter it was handed) and a
// reused message is the very object sent before.

const REQUEST = { guildId: null, userId: "2" } as CommandRequest;
const REPO = { owner: "demo", name: "widgets" };

/** Services as far as the answering commands read them, on a clock the test moves. */
function servicesAt(clock: { now: Date }, scout: Partial<Services["scout"]>): Services {
  return {
    scout,
    buttons: createButtonStateStore(null),
    rendered: createRenderedAnswers(),
    now: () => clock.now,
  } as unknown as Services;
}

function footerOf(message: FormattedMessage): string | undefined {
  return message.embeds[0]?.footer?.text;
}

describe("rendered answers", () => {
  it("renders a message once per answer and variant, and again for another answer or variant", () => {
    const rendered = createRenderedAnswers();
    const render = vi.fn((): FormattedMessage => ({
      content: "x",
      embeds: [],
      components: [],
      files: [],
      allowedMentions: { parse: [] },
    }));
    const answer = { text: "same" };
    const first = rendered.message([answer], ["cached just now", 1], render);
    expect(rendered.message([answer], ["cached just now", 1], render)).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    rendered.message([answer], ["cached 1 min ago", 1], render);
    // Equal content is not the same answer: two answers never share a message.
    rendered.message([{ text: "same" }], ["cached just now", 1], render);
    expect(render).toHaveBeenCalledTimes(3);
    expect(rendered.counts()).toEqual({ rendered: 3, reused: 1 });
  });

  it("does not format a repeat of a cached /blame again, and its footer still follows the minute", async () => {
    const clock = { now: NOW };
    const fetched: Fetched<BlameAnswer> = {
      value: makeBlame({ lines: makeLines(120, 30) }),
      freshness: CACHED,
      origin: "default",
    };
    const services = servicesAt(clock, { blame: async () => fetched });
    const args = { repo: REPO, path: "src/app.ts", lines: { start: 10, end: 30 } };
    const formatted = () => services.rendered.counts().rendered;

    const first = await blame.execute(args, REQUEST, services);
    const repeat = await blame.execute(args, REQUEST, services);
    expect(formatted()).toBe(1);
    expect(repeat.message).toBe(first.message);
    expect(footerOf(repeat.message)).toMatch(/^cached 11 min ago · /);

    // Other lines of the same answer are another message.
    const other = await blame.execute({ ...args, lines: { start: 31, end: 50 } }, REQUEST, services);
    expect(formatted()).toBe(2);
    expect(other.message.embeds[0]?.url).toContain("#L31-L50");

    // A minute later the footer says so.
    clock.now = new Date(NOW.getTime() + 60_000);
    const later = await blame.execute(args, REQUEST, services);
    expect(formatted()).toBe(3);
    expect(footerOf(later.message)).toMatch(/^cached 12 min ago · /);
    expect(later.message.embeds[0]?.description).toBe(first.message.embeds[0]?.description);
  });

  it("does not draw the /owners chart again for a repeat, nor when only the footer's minute changed", async () => {
    const clock = { now: NOW };
    const who = { name: "Ada", email: "ada@example.com", login: "ada" };
    const target = {
      kind: "folder" as const,
      files: [{ path: "src/a.ts", size: 10, isBinary: false }],
      deeperFolders: [],
    };
    const value: OwnersAnswer = {
      tree: {
        repository: REPOSITORY,
        commit: PINNED,
        path: "src",
        target,
        codeowners: null,
        recent: [{ oid: "a".repeat(40), authoredDate: "2025-05-20T12:00:00Z", author: who }],
        recentTotal: 1,
        since: "2024-06-01T00:00:00Z",
      },
      selection: selectFiles("src", target),
      blamed: [
        {
          path: "src/a.ts",
          lines: [{ lines: 12, oid: "a".repeat(40), authoredDate: "2025-05-20T12:00:00Z", author: who }],
        },
      ],
      blamePoints: 1,
    };
    // The Scout builds a new answer each time from the two pinned answers it holds.
    const services = servicesAt(clock, {
      owners: async () => ({ value: { ...value }, freshness: CACHED, origin: "default", pointsSpent: 0 }),
    });
    const args = { repo: REPO, path: "src" };

    const first = await owners.execute(args, REQUEST, services);
    const repeat = await owners.execute(args, REQUEST, services);
    expect(repeat.message).toBe(first.message);
    // The message and its chart, each rendered once.
    expect(services.rendered.counts()).toEqual({ rendered: 2, reused: 1 });

    clock.now = new Date(NOW.getTime() + 60_000);
    const later = await owners.execute(args, REQUEST, services);
    expect(footerOf(later.message)).toMatch(/^cached 12 min ago · /);
    // The text again, not the chart: the very PNG sent before.
    expect(services.rendered.counts()).toEqual({ rendered: 3, reused: 2 });
    expect(later.message).not.toBe(first.message);
    expect(later.message.files[0]?.data).toBe(first.message.files[0]!.data);
  });
});
