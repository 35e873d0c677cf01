import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { command as blame } from "../../commands/blame.js";
import { parseCommandLine, splitWords } from "../../src/sandbox/commandLine.js";

const definitions: RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  {
    name: "blame",
    description: "d",
    options: [
      { type: ApplicationCommandOptionType.String, name: "repo", description: "d", required: true },
      { type: ApplicationCommandOptionType.String, name: "path", description: "d", required: true },
      { type: ApplicationCommandOptionType.Boolean, name: "thread", description: "d" },
    ],
  },
  {
    name: "contributors",
    description: "d",
    options: [
      { type: ApplicationCommandOptionType.String, name: "repo", description: "d", required: true },
      { type: ApplicationCommandOptionType.Integer, name: "page", description: "d" },
    ],
  },
  {
    name: "settings",
    description: "d",
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "threads",
        description: "d",
        options: [
          { type: ApplicationCommandOptionType.Boolean, name: "enabled", description: "d", required: true },
        ],
      },
    ],
  },
];

describe("terminal command line", () => {
  it("splits words with quotes", () => {
    expect(splitWords(`/blame repo:demo/widgets path:"docs/my notes.md" x:'a b'`)).toEqual([
      "/blame",
      "repo:demo/widgets",
      "path:docs/my notes.md",
      "x:a b",
    ]);
  });

  it("parses options with their types", () => {
    expect(parseCommandLine("/blame repo:demo/widgets path:README.md thread:true", definitions)).toEqual({
      name: "blame",
      path: [],
      options: { repo: "demo/widgets", path: "README.md", thread: true },
    });
    expect(parseCommandLine("/contributors repo:demo/crowd page:2", definitions).options.page).toBe(2);
  });

  it("parses subcommands", () => {
    expect(parseCommandLine("/settings threads enabled:false", definitions)).toEqual({
      name: "settings",
      path: ["threads"],
      options: { enabled: false },
    });
  });

  it("says what is wrong", () => {
    expect(() => parseCommandLine("blame", definitions)).toThrow(/starts with \//);
    expect(() => parseCommandLine("/nope", definitions)).toThrow(/unknown command/);
    expect(() => parseCommandLine("/blame repo:demo/widgets", definitions)).toThrow(/needs path/);
    expect(() => parseCommandLine("/blame repo:a/b path:x color:red", definitions)).toThrow(
      /no option color/,
    );
    expect(() => parseCommandLine("/contributors repo:a/b page:two", definitions)).toThrow(/whole number/);
    expect(() => parseCommandLine("/settings", definitions)).toThrow(/takes one of: threads/);
    expect(() => parseCommandLine('/blame repo:"a', definitions)).toThrow(/unclosed/);
  });

  it("takes /blame with a file URL and no path, as the real /blame definition allows", () => {
    const real = [blame.data as RESTPostAPIChatInputApplicationCommandsJSONBody];
    expect(
      parseCommandLine("/blame repo:https://github.com/demo/widgets/blob/main/README.md#L1-L5", real),
    ).toEqual({
      name: "blame",
      path: [],
      options: { repo: "https://github.com/demo/widgets/blob/main/README.md#L1-L5" },
    });
    expect(() => parseCommandLine("/blame path:README.md", real)).toThrow(/needs repo/);
  });
});
