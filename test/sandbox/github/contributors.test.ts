import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_ANONYMOUS_EMAIL,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { rest } from "./helpers.js";

let standIn: GitHubStandIn;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
});

afterAll(async () => {
  await standIn.close();
});

interface Item {
  login?: string;
  email?: string;
  name?: string;
  type: string;
  contributions: number;
  [key: string]: unknown;
}

/** Commits per author email of a demo repository's default branch, as git counts them. */
async function commitsByEmail(repository: string): Promise<Map<string, number>> {
  const [owner = "", name = ""] = repository.split("/");
  const gitDir = standIn.world.repository(owner, name)!.gitDir;
  const emails = (await runGitChecked(["log", "--format=%aE", "main"], { gitDir }))
    .toString("utf8")
    .trim()
    .split("\n");
  const counts = new Map<string, number>();
  for (const email of emails) counts.set(email, (counts.get(email) ?? 0) + 1);
  return counts;
}

describe("GET /repos/{owner}/{repo}/contributors", () => {
  it("lists accounts by contributions, emails of one account folded into its login", async () => {
    const answer = await rest(standIn, "/repos/demo/widgets/contributors");
    expect(answer.status).toBe(200);
    const items = answer.body as Item[];
    const counts = await commitsByEmail("demo/widgets");
    const alice = items.find((item) => item.login === "alice");
    expect(alice?.contributions).toBe(
      (counts.get("alice@widgets.example") ?? 0) + (counts.get("alice.liddell@oldmail.example") ?? 0),
    );
    expect(items.map((item) => item.contributions)).toEqual(
      [...items.map((item) => item.contributions)].sort((a, b) => b - a),
    );
    expect(items.every((item) => item.type !== "Anonymous")).toBe(true);
    expect(answer.headers.get("link")).toBeNull();
  });

  it("shapes items as GitHub does, bots included", async () => {
    const items = (await rest(standIn, "/repos/demo/widgets/contributors")).body as Item[];
    const bob = items.find((item) => item.login === "bob")!;
    expect(Object.keys(bob)).toEqual([
      "login",
      "id",
      "node_id",
      "avatar_url",
      "gravatar_id",
      "url",
      "html_url",
      "followers_url",
      "following_url",
      "gists_url",
      "starred_url",
      "subscriptions_url",
      "organizations_url",
      "repos_url",
      "events_url",
      "received_events_url",
      "type",
      "user_view_type",
      "site_admin",
      "contributions",
    ]);
    expect(bob).toMatchObject({
      login: "bob",
      id: 90012,
      node_id: Buffer.from("04:User90012").toString("base64"),
      html_url: "https://github.com/bob",
      type: "User",
      site_admin: false,
      url: `${standIn.restUrl}/users/bob`,
    });
    expect(items.find((item) => item.login === "dave")?.site_admin).toBe(true);
    expect(items.find((item) => item.login === "dependabot[bot]")).toMatchObject({
      type: "Bot",
      html_url: "https://github.com/apps/dependabot",
      contributions: 2,
    });
  });

  it("adds anonymous contributors with anon=1 or anon=true", async () => {
    for (const anon of ["1", "true"]) {
      const items = (await rest(standIn, `/repos/demo/widgets/contributors?anon=${anon}`)).body as Item[];
      expect(items).toContainEqual({
        email: DEMO_ANONYMOUS_EMAIL,
        name: "Mallory Unmapped",
        type: "Anonymous",
        contributions: (await commitsByEmail("demo/widgets")).get(DEMO_ANONYMOUS_EMAIL),
      });
    }
  });

  it("pages a long list with Link headers pointing at /repositories/{id}/contributors", async () => {
    const base = `${standIn.restUrl}/repositories/700005/contributors`;
    const one = await rest(standIn, "/repos/demo/crowd/contributors");
    expect(one.body).toHaveLength(30);
    expect(one.headers.get("link")).toBe(`<${base}?page=2>; rel="next", <${base}?page=3>; rel="last"`);
    expect((one.body as Item[])[0]).toMatchObject({ login: "crowd-01", contributions: 75 });
    expect((one.body as Item[])[1]).toMatchObject({ login: "crowd-02", contributions: 74 });

    const two = await rest(standIn, "/repos/demo/crowd/contributors?page=2");
    expect(two.headers.get("link")).toBe(
      `<${base}?page=1>; rel="prev", <${base}?page=3>; rel="next", <${base}?page=3>; rel="last", <${base}?page=1>; rel="first"`,
    );
    const three = await rest(standIn, "/repos/demo/crowd/contributors?page=3");
    expect(three.body).toHaveLength(15);
    expect(three.headers.get("link")).toBe(`<${base}?page=2>; rel="prev", <${base}?page=1>; rel="first"`);

    const logins = [one, two, three].flatMap((page) => (page.body as Item[]).map((item) => item.login));
    expect(new Set(logins).size).toBe(75);

    // The next link works as given.
    const followed = await fetch(`${base}?page=2`);
    expect(await followed.json()).toEqual(two.body);
  });

  it("keeps per_page and anon in the links; caps per_page at 100", async () => {
    const base = `${standIn.restUrl}/repositories/700005/contributors`;
    const anon = await rest(standIn, "/repos/demo/crowd/contributors?anon=1&per_page=40");
    expect(anon.headers.get("link")).toBe(
      `<${base}?anon=1&per_page=40&page=2>; rel="next", <${base}?anon=1&per_page=40&page=3>; rel="last"`,
    );
    const all = await rest(standIn, "/repos/demo/crowd/contributors?per_page=500&anon=1");
    expect(all.body).toHaveLength(85);
    expect(all.headers.get("link")).toBeNull();
    const beyond = await rest(standIn, "/repos/demo/crowd/contributors?page=9");
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
  });

  it("past the last page answers [] and still says where the list ends: prev and last at the last page, first", async () => {
    const base = `${standIn.restUrl}/repositories/700005/contributors`;
    const four = await rest(standIn, "/repos/demo/crowd/contributors?page=4");
    expect(four.status).toBe(200);
    expect(four.body).toEqual([]);
    expect(four.headers.get("link")).toBe(
      `<${base}?page=3>; rel="prev", <${base}?page=3>; rel="last", <${base}?page=1>; rel="first"`,
    );
    const far = await rest(standIn, "/repos/demo/crowd/contributors?anon=1&per_page=40&page=99");
    expect(far.headers.get("link")).toBe(
      `<${base}?anon=1&per_page=40&page=3>; rel="prev", <${base}?anon=1&per_page=40&page=3>; rel="last", <${base}?anon=1&per_page=40&page=1>; rel="first"`,
    );
    // A list that fits on one page: page 2 is past its end too.
    const widgetsBase = `${standIn.restUrl}/repositories/700001/contributors`;
    const two = await rest(standIn, "/repos/demo/widgets/contributors?page=2");
    expect(two.body).toEqual([]);
    expect(two.headers.get("link")).toBe(
      `<${widgetsBase}?page=1>; rel="prev", <${widgetsBase}?page=1>; rel="last", <${widgetsBase}?page=1>; rel="first"`,
    );
  });

  it("serves /repositories/{id}/contributors and the Enterprise /api/v3 base", async () => {
    const byId = await rest(standIn, "/repositories/700001/contributors");
    const byName = await rest(standIn, "/repos/demo/widgets/contributors");
    expect(byId.body).toEqual(byName.body);
    const enterprise = await rest(standIn, "/api/v3/repos/demo/crowd/contributors");
    expect(enterprise.headers.get("link")).toContain(
      `<${standIn.enterpriseRestUrl}/repositories/700005/contributors?page=2>`,
    );
    expect((enterprise.body as Item[])[0]!.url).toBe(`${standIn.enterpriseRestUrl}/users/crowd-01`);
  });

  it("answers 204 with no body for an empty repository", async () => {
    const answer = await rest(standIn, "/repos/demo/empty/contributors");
    expect(answer.status).toBe(204);
    expect(answer.body).toBeNull();
  });

  it("answers 403 for a repository too large to list", async () => {
    const answer = await rest(standIn, "/repos/demo/huge-history/contributors");
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      message:
        "The history or contributor list is too large to list contributors for this repository via the API.",
    });
  });

  it("answers 404 for an unknown repository and for a private one the token cannot see", async () => {
    for (const [path, token] of [
      ["/repos/demo/nothing/contributors", undefined],
      ["/repos/demo/secret/contributors", OTHER_TOKEN],
      ["/repos/demo/secret/contributors", null],
      ["/repositories/999/contributors", undefined],
    ] as const) {
      const answer = await rest(standIn, path, token);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toMatchObject({ message: "Not Found", status: "404" });
    }
    expect((await rest(standIn, "/repos/demo/secret/contributors")).status).toBe(200);
  });

  it("answers 304 to If-None-Match with the ETag, without counting it", async () => {
    const first = await rest(standIn, "/repos/demo/widgets/contributors");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+"$/);
    const remaining = Number(first.headers.get("x-ratelimit-remaining"));
    const again = await rest(standIn, "/repos/demo/widgets/contributors", undefined, {
      "if-none-match": etag,
    });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(remaining);
    const changed = await rest(standIn, "/repos/demo/widgets/contributors", undefined, {
      "if-none-match": 'W/"other"',
    });
    expect(changed.status).toBe(200);
    expect(Number(changed.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
  });
});
