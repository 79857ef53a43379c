/**
 * The memory inspector in a real headless Chromium against a real `hindsight serve`: the key is
 * asked for, search finds the memory meant, an edit is persisted, forget and restore round-trip,
 * the language switches — and the page logs no script error.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, postgresSkipReason } from "./support/backends.js";
import { REDIS_URL, redisSkipReason, testPrefix } from "./support/redis.js";
import { killServers, type Served, serve } from "./support/serve.js";

const CHROMIUM = process.env.HINDSIGHT_TEST_CHROMIUM ?? "/usr/bin/chromium";
const missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM}`;
if (missing && process.env.CI === "true") {
  throw new Error(`CI=true and ${missing}; .ci/run installs Debian's chromium package`);
}

const KEY = "ui-test-key";

interface Store {
  name: string;
  skip: string | undefined;
  /** The server's environment for a fresh store (besides its data directory), and its cleanup. */
  open(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
}

const STORES: Store[] = [
  {
    name: "the embedded store",
    skip: undefined,
    open: async () => ({ env: {}, cleanup: async () => {} }),
  },
  {
    name: "PostgreSQL and Redis",
    skip: postgresSkipReason ?? redisSkipReason,
    open: async () => {
      const { url, drop } = await createTestSchema();
      const redis = testPrefix();
      return {
        env: {
          DATABASE_URL: url,
          REDIS_URL,
          HINDSIGHT_WORKING_KEY_PREFIX: redis.keyPrefix,
        },
        cleanup: async () => {
          await drop();
          await redis.cleanup();
        },
      };
    },
  },
];

describe.each(STORES)("the memory inspector in Chromium, on $name", (store) => {
  if (missing !== undefined || store.skip !== undefined) {
    it.skip(`needs ${missing ?? store.skip}`, () => {});
    return;
  }
  let dir: string;
  let cleanup: () => Promise<void>;
  let server: Served;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  let billing: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const text = (selector: string) =>
    page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hindsight-ui-"));
    const opened = await store.open();
    cleanup = opened.cleanup;
    server = await serve({
      ...opened.env,
      HINDSIGHT_DATA_DIR: join(dir, "data"),
      HINDSIGHT_API_KEY: KEY,
      HINDSIGHT_LOG_LEVEL: "warn",
    });
    billing = String(
      (
        await api("POST", "/v1/memories", {
          task_type: "deploy",
          summary: "Deploying billing failed: port 8080 already in use",
          outcome: "failure",
          tags: ["billing"],
        })
      ).id,
    );
    await api("POST", "/v1/memories", {
      task_type: "review",
      summary: "Reviewed the payments pull request",
      outcome: "success",
    });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--lang=en-US"],
    });
    page = await browser.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    killServers();
    await cleanup?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("asks for the API key, then searches in the user's words", async () => {
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector("#key-form input[name=key]");
    await page.type("#key-form input[name=key]", KEY);
    await page.keyboard.press("Enter");
    await page.waitForSelector("input[type=search]");
    await page.type("input[type=search]", "why did the billing deploy fail");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#results article");
    expect(await text("#results article")).toContain("Deploying billing failed");
    expect(
      await page.$$eval("#results article:first-child mark", (marks) => marks.length),
    ).toBeGreaterThan(0);
  });

  it("opens a memory, edits it, forgets and restores it — each persisted", async () => {
    await page.goto(`${server.url}/ui#/memory/${billing}`);
    await page.waitForSelector("h2");
    expect(await text("h2")).toContain("port 8080");
    await page.click(".actions button:first-child");
    await page.$eval("#editor textarea[name=summary]", (area) => {
      (area as unknown as { value: string }).value =
        "Deploying billing failed: port 9090 already in use";
    });
    await page.click("#editor button[type=submit]");
    await page.waitForFunction(`document.querySelector("h2")?.textContent?.includes("9090")`);
    expect(await api("GET", `/v1/memories/${billing}`)).toMatchObject({
      summary: "Deploying billing failed: port 9090 already in use",
    });
    expect(await text("#history")).toContain("updated");

    const [, forget] = await page.$$(".actions button");
    await forget!.click();
    await page.waitForFunction(
      `document.querySelector(".meta")?.textContent?.includes("archived")`,
    );
    expect(await api("GET", `/v1/memories/${billing}`)).toMatchObject({ status: "archived" });
    const [, restore] = await page.$$(".actions button");
    await restore!.click();
    await page.waitForFunction(`document.querySelector(".meta")?.textContent?.includes("active")`);
    expect(await api("GET", `/v1/memories/${billing}`)).toMatchObject({ status: "active" });
  });

  it("reviews the quarantine, and previews what decay would archive", async () => {
    await api("POST", "/v1/groups/ops/grant", { agent_ids: ["planner"] });
    const shared = await api("POST", "/v1/facts", {
      key_text: "release freeze",
      value_text: "no releases in December",
      source: "wiki",
      agent_id: "planner",
      shared_group: "ops",
    });
    expect(shared.review_status).toBe("quarantined");
    await page.goto(`${server.url}/ui#/shared`);
    await page.waitForSelector("article.quarantined");
    await page.type("article.quarantined input[name=reason]", "checked with the release team");
    await page.click("article.quarantined button.confirm");
    await page.waitForFunction(`!document.querySelector("article.quarantined")`);
    expect(await api("GET", `/v1/memories/${shared.id}`)).toMatchObject({
      review_status: "confirmed",
      reviewed_by: "inspector",
    });

    const before = await api("GET", "/v1/stats");
    await page.goto(`${server.url}/ui#/lifecycle`);
    await page.waitForSelector("input[name=now]");
    await page.type("input[name=now]", "2030-01-01T00:00:00Z");
    await page.click("#maintain-preview");
    await page.waitForSelector("#lifecycle-output ul");
    expect(await text("#lifecycle-output p")).toMatch(/^Would archive: [1-9]/);
    expect(await api("GET", "/v1/stats")).toEqual(before);
  });

  it("browses with filters and switches to Chinese", async () => {
    await page.goto(`${server.url}/ui#/browse`);
    await page.waitForSelector("#memories p");
    // Two episodes and the confirmed shared fact.
    expect(await text("#memories p")).toMatch(/^3 /);
    await page.type("form.filters input[name=tags]", "billing");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      `document.querySelector("#memories p")?.textContent?.startsWith("1 ")`,
    );
    await page.click("#language");
    await page.waitForFunction(`document.querySelector("#nav")?.textContent?.includes("检索")`);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("shows live working-memory sessions with their budget use and summary", async () => {
    await page.click("#language");
    await page.waitForFunction(`document.querySelector("#nav")?.textContent?.includes("Search")`);
    await api("POST", "/v1/working/deploy-7/items", {
      kind: "goal",
      role: "user",
      content: "Roll out billing v2",
      agent_id: "planner",
    });
    const log = " The rollout log lists every pod that restarted and when.".repeat(6);
    for (const step of ["Drained node a.", "Drained node b."]) {
      await api("POST", "/v1/working/deploy-7/items", {
        kind: "result",
        role: "tool",
        content: `${step}${log}`,
        agent_id: "planner",
      });
    }
    await api("POST", "/v1/working/deploy-7/compress?agent_id=planner");
    await page.goto(`${server.url}/ui#/working`);
    await page.waitForSelector("tr.working-session");
    const row = await text("tr.working-session");
    expect(row).toContain("deploy-7");
    expect(row).toContain("planner");
    expect(row).toContain("Roll out billing v2");
    expect(await page.$eval("tr.working-session meter", (meter) => meter.getAttribute("max"))).toBe(
      "4000",
    );
    await page.click("tr.working-session button");
    await page.waitForSelector("#session table.summary");
    expect(await text("#session table.summary")).toContain("Roll out billing v2");
    expect(await text("#session table.items")).toContain("goal (user)");
  });

  it("draws a memory's provenance and lists its audit entries", async () => {
    const old = await api("POST", "/v1/facts", {
      key_text: "billing deploy port",
      value_text: "billing listens on port 8080",
    });
    const current = await api("POST", "/v1/facts", {
      key_text: "billing deploy port",
      value_text: "billing listens on port 9090",
    });
    expect(current.superseded).toEqual([old.id]);
    await page.goto(`${server.url}/ui#/memory/${old.id}`);
    await page.waitForSelector("#provenance-graph svg a.node");
    expect(await page.$eval("#provenance-graph a.node", (node) => node.getAttribute("href"))).toBe(
      `#/memory/${current.id}`,
    );
    expect(await text("#provenance-graph")).toContain("port 9090");
    expect(await text("#audit")).toContain("supersede");
  });

  it("forecasts decay over time with the engine's own dry runs, changing nothing", async () => {
    const before = await api("GET", "/v1/stats");
    await page.goto(`${server.url}/ui#/lifecycle`);
    await page.waitForSelector("#decay-forecast");
    await page.click("#decay-forecast");
    await page.waitForSelector("#decay-chart svg polyline");
    const row = await page.$$eval("#decay-chart table.forecast tr.episodic td", (cells) =>
      cells.map((cell) => Number(cell.textContent)),
    );
    const active = (before.episodic as { active: number }).active;
    // Today nothing has decayed yet; two years on, unused episodes are archived.
    expect(row[0]).toBe(active);
    expect(row.at(-1)).toBeLessThan(active);
    expect([...row].sort((a, b) => b - a)).toEqual(row);
    expect(await api("GET", "/v1/stats")).toEqual(before);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
