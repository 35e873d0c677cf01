import { ApplicationCommandOptionType, ComponentType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { focusedOptionOf, modalFieldsOf, rawOptionsOf } from "../../../src/bot/core/options.js";

describe("options of an interaction payload", () => {
  it("flattens values by name, with the subcommand and its group", () => {
    expect(
      rawOptionsOf([
        {
          type: ApplicationCommandOptionType.SubcommandGroup,
          name: "token",
          options: [
            {
              type: ApplicationCommandOptionType.Subcommand,
              name: "set",
              options: [
                { type: ApplicationCommandOptionType.String, name: "repo", value: "demo/widgets" },
                { type: ApplicationCommandOptionType.Boolean, name: "thread", value: false },
                { type: ApplicationCommandOptionType.Integer, name: "page", value: 3 },
              ],
            },
          ],
        },
      ]),
    ).toEqual({ group: "token", subcommand: "set", repo: "demo/widgets", thread: false, page: 3 });
    expect(rawOptionsOf(undefined)).toEqual({});
  });

  it("finds the option being typed, inside a subcommand too, as the raw text Discord sends", () => {
    expect(
      focusedOptionOf([
        { type: ApplicationCommandOptionType.String, name: "repo", value: "demo/widgets" },
        { type: ApplicationCommandOptionType.Integer, name: "page", value: "1", focused: true },
      ]),
    ).toEqual({ name: "page", value: "1" });
    expect(
      focusedOptionOf([
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: "show",
          options: [
            { type: ApplicationCommandOptionType.String, name: "path", value: "src/", focused: true },
          ],
        },
      ]),
    ).toEqual({ name: "path", value: "src/" });
    expect(
      focusedOptionOf([{ type: ApplicationCommandOptionType.String, name: "repo", value: "x" }]),
    ).toBeNull();
  });

  it("reads a modal's text inputs in action rows and in labels", () => {
    expect(
      modalFieldsOf([
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.TextInput, custom_id: "token", value: "ghp_x" }],
        },
        {
          type: ComponentType.Label,
          component: { type: ComponentType.TextInput, custom_id: "note", value: "hi" },
        },
        { type: ComponentType.TextDisplay },
      ]),
    ).toEqual({ token: "ghp_x", note: "hi" });
  });
});
