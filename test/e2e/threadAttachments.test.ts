import { describe, expect, it } from "vitest";
import { DEMO_PATHS, DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { expectDeliveredWithoutPings, useWorld } from "./helpers.js";

const world = useWorld();

describe("an answer with a file, in a thread", () => {
  it("/blame of long lines in a thread: Discord takes the file and the thread shows it", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: DEMO_REPOSITORIES.widgets, path: DEMO_PATHS.wide, lines: "1-20", thread: true },
    });
    // The thread message is posted over REST with `attachments[].id`: Discord's form check wants a
    // snowflake string there ("0" for files[0]) and refuses the number 0 with 50035.
    expectDeliveredWithoutPings(record);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe(`blame ${DEMO_REPOSITORIES.widgets} ${DEMO_PATHS.wide}`);
    const answer = seen.messages.find((message) => message.place === "thread");
    expect(answer?.message.files.map((file) => file.name)).toEqual(["blame-wide.txt-L1-20.txt"]);
    const sent = record.threadMessages[0]!.writes[0]!.body as { attachments?: Array<{ id: unknown }> };
    expect(sent.attachments?.map((attachment) => attachment.id)).toEqual(["0"]);
  });
});
