import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_LOGIN,
  DEMO_ORGANIZATION,
  DEMO_TOKEN,
  OTHER_TOKEN,
  ensureDemoWorld,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { graphql, rest } from "./helpers.js";

/** A world of its own: the demo world plus an enterprise of two organizations with internal repositories. */
let standIn: GitHubStandIn;
/** A second stand-in built from the same demo data, to show that changes stay in their own world. */
let untouched: GitHubStandIn;

const ENTERPRISE_TOKEN = "ghp_enterprise_member_token_for_tests";

const REPOSITORY = `query Repo($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner isPrivate visibility } }`;

const LIST = `query List($login: String!, $privacy: RepositoryPrivacy, $visibility: RepositoryVisibility) {
  repositoryOwner(login: $login) {
    repositories(first: 100, privacy: $privacy, visibility: $visibility, orderBy: { field: NAME, direction: ASC }) {
      totalCount nodes { name isPrivate visibility } } } }`;

async function visibilityOf(owner: string, name: string, token = DEMO_TOKEN): Promise<unknown> {
  const answer = await graphql(standIn, REPOSITORY, { owner, name }, token);
  return answer.body.data?.repository ?? answer.body.errors?.[0]?.type;
}

beforeAll(async () => {
  const demo = await ensureDemoWorld();
  const definition = structuredClone(demo.definition);
  const widgets = definition.repositories.find((repository) => repository.name === "widgets")!;
  definition.users.push({ login: "enterprise-member", id: 91001 });
  definition.organizations.find((organization) => organization.login === DEMO_ORGANIZATION)!.enterprise =
    "acme";
  definition.organizations.push({
    login: "sister",
    id: 91002,
    members: ["enterprise-member"],
    enterprise: "acme",
  });
  definition.repositories.push({
    owner: DEMO_ORGANIZATION,
    name: "handbook",
    id: 91003,
    gitDir: widgets.gitDir,
    visibility: "INTERNAL",
  });
  definition.tokens[ENTERPRISE_TOKEN] = "enterprise-member";
  standIn = await startGitHubStandIn({ world: definition });
  untouched = await startGitHubStandIn({ world: definition });
});

afterAll(async () => {
  await standIn?.close();
  await untouched?.close();
});

describe("visibility, as GitHub answers it", () => {
  it("answers PUBLIC, PRIVATE and INTERNAL, and isPrivate true for private and internal ones", async () => {
    expect(await visibilityOf("demo", "widgets")).toEqual({
      nameWithOwner: "demo/widgets",
      isPrivate: false,
      visibility: "PUBLIC",
    });
    expect(await visibilityOf("demo", "secret")).toEqual({
      nameWithOwner: "demo/secret",
      isPrivate: true,
      visibility: "PRIVATE",
    });
    expect(await visibilityOf("demo", "handbook")).toEqual({
      nameWithOwner: "demo/handbook",
      isPrivate: true,
      visibility: "INTERNAL",
    });
  });

  it("shows an internal repository to the members of every organization of the enterprise, not to others", async () => {
    expect(await visibilityOf("demo", "handbook", ENTERPRISE_TOKEN)).toMatchObject({
      visibility: "INTERNAL",
    });
    expect(await visibilityOf("demo", "secret", ENTERPRISE_TOKEN)).toBe("NOT_FOUND");
    expect(await visibilityOf("demo", "handbook", OTHER_TOKEN)).toBe("NOT_FOUND");
  });

  it("filters lists as GitHub does: privacy PUBLIC leaves internal ones out, visibility picks one kind", async () => {
    const list = async (variables: Record<string, unknown>) =>
      (await graphql(standIn, LIST, { login: "demo", ...variables })).body.data.repositoryOwner.repositories;
    const everything = await list({});
    expect(everything.nodes.map((node: { name: string }) => node.name)).toEqual(
      expect.arrayContaining(["handbook", "secret", "widgets"]),
    );
    const publicOnly = await list({ privacy: "PUBLIC" });
    expect(publicOnly.nodes.every((node: { visibility: string }) => node.visibility === "PUBLIC")).toBe(true);
    expect(publicOnly.totalCount).toBe(everything.totalCount - 2);
    const internal = await list({ visibility: "INTERNAL" });
    expect(internal.nodes).toEqual([{ name: "handbook", isPrivate: true, visibility: "INTERNAL" }]);
  });
});

describe("access changed while the stand-in runs", () => {
  it("hides a private repository from a member removed from its organization, on GraphQL and REST alike", async () => {
    // Asked once before the change, so an answer reused across it would show.
    expect(await visibilityOf("demo", "secret")).toMatchObject({ visibility: "PRIVATE" });
    expect((await rest(standIn, "/repos/demo/secret/contributors")).status).toBe(200);
    const members = standIn.world.organization(DEMO_ORGANIZATION)!.members ?? [];
    standIn.world.setMembers(
      DEMO_ORGANIZATION,
      members.filter((login) => login !== DEMO_LOGIN),
    );
    try {
      expect(await visibilityOf("demo", "secret")).toBe("NOT_FOUND");
      expect((await rest(standIn, "/repos/demo/secret/contributors")).status).toBe(404);
      // The other stand-in, built from the same data, keeps its own world.
      const elsewhere = await graphql(untouched, REPOSITORY, { owner: "demo", name: "secret" });
      expect(elsewhere.body.data.repository).toMatchObject({ visibility: "PRIVATE" });
    } finally {
      standIn.world.setMembers(DEMO_ORGANIZATION, members);
    }
    expect(await visibilityOf("demo", "secret")).toMatchObject({ visibility: "PRIVATE" });
  });

  it("hides a repository made private from those who are not its owner, members or collaborators", async () => {
    expect(await visibilityOf("demo-user", "playground", OTHER_TOKEN)).toMatchObject({
      visibility: "PUBLIC",
    });
    standIn.world.setVisibility("demo-user", "playground", "PRIVATE");
    try {
      // other-user collaborates on it: still visible, now private.
      expect(await visibilityOf("demo-user", "playground", OTHER_TOKEN)).toMatchObject({
        isPrivate: true,
        visibility: "PRIVATE",
      });
      standIn.world.setCollaborators("demo-user", "playground", []);
      expect(await visibilityOf("demo-user", "playground", OTHER_TOKEN)).toBe("NOT_FOUND");
      expect((await rest(standIn, "/repos/demo-user/playground/contributors", OTHER_TOKEN)).status).toBe(404);
      expect(await visibilityOf("demo-user", "playground")).toMatchObject({ visibility: "PRIVATE" });
    } finally {
      standIn.world.setVisibility("demo-user", "playground", "PUBLIC");
    }
  });

  it("says which repository or organization it does not know", () => {
    expect(() => standIn.world.setVisibility("demo", "nope", "PRIVATE")).toThrow(/no repository demo\/nope/);
    expect(() => standIn.world.setMembers("nobody", [])).toThrow(/no organization nobody/);
  });
});
