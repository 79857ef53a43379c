// Screenshots of each inspector view for docs/ui.md: boots `hindsight serve` on a scratch
// store with a few memories (hash embedder), drives headless Chromium, writes docs/ui/*.png.
// Usage: npm run build && node scripts/ui-screenshots.mjs [chromium path]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chromium = process.argv[2] ?? "/usr/bin/chromium";
const dir = await mkdtemp(path.join(tmpdir(), "hindsight-shots-"));
const server = spawn(
  process.execPath,
  [path.join(root, "dist/cli/main.js"), "serve", "--port", "0"],
  {
    env: {
      ...process.env,
      HINDSIGHT_DATA_DIR: path.join(dir, "data"),
      HINDSIGHT_EMBEDDER: "hash",
      HINDSIGHT_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  },
);
const url = await new Promise((resolve, reject) => {
  let text = "";
  server.stderr.on("data", (chunk) => {
    text += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(text);
    if (match) resolve(match[1]);
  });
  server.on("exit", () => reject(new Error(text)));
});
const post = (route, body) =>
  fetch(`${url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const { id } = await post("/v1/memories", {
  task_type: "deploy",
  summary: "Deploying billing failed: port 8080 already in use",
  outcome: "failure",
  tags: ["billing", "k8s"],
});
await post("/v1/memories", {
  task_type: "deploy",
  summary: "Deployed billing after freeing port 8080",
  outcome: "success",
  tags: ["billing"],
});
await post("/v1/memories", {
  task_type: "preference",
  summary: "用户偏好用中文回复，不喜欢冗长解释",
  outcome: "success",
});
const rule = await post("/v1/facts", {
  key_text: "Check the port before deploying",
  value_text: "lsof -i :8080; stop what holds it",
  task_type: "deploy",
  source_episode_ids: [id],
});
// A correction of the rule, which supersedes it: the graph shows both links.
await post("/v1/facts", {
  key_text: "Check the port before deploying",
  value_text: "ss -ltnp 'sport = :8080'; stop what holds it",
  task_type: "deploy",
  source_episode_ids: [id],
});
const log = " The rollout log lists every pod that restarted and when.".repeat(6);
for (const [kind, role, content] of [
  ["goal", "user", "Roll out billing v2 without downtime"],
  ["result", "tool", `Drained node a.${log}`],
  ["result", "tool", `Drained node b.${log}`],
  ["instruction", "user", "Now switch the traffic to v2"],
]) {
  await post("/v1/working/deploy-7/items", { kind, role, content, agent_id: "planner" });
}
await fetch(`${url}/v1/working/deploy-7/compress?agent_id=planner`, { method: "POST" });
await post("/v1/working/review-12/items", {
  kind: "goal",
  role: "user",
  content: "Review the payments pull request",
});
await post("/v1/groups/ops/grant", { agent_ids: ["planner"] });
await post("/v1/facts", {
  key_text: "Release freeze",
  value_text: "no releases in December",
  source: "wiki",
  agent_id: "planner",
  shared_group: "ops",
});

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--lang=en-US"],
});
const page = await browser.newPage();
await page.setViewport({ width: 1100, height: 620 });
const shot = async (name) => {
  await new Promise((resolve) => setTimeout(resolve, 400));
  await page.screenshot({ path: path.join(root, "docs/ui", `${name}.png`) });
};
await page.goto(`${url}/ui#/search`);
await page.waitForSelector("input[type=search]");
await page.type("input[type=search]", "why did the billing deploy fail?");
await page.keyboard.press("Enter");
await page.waitForSelector("#results article");
await shot("search");
await page.goto(`${url}/ui#/browse`);
await page.waitForSelector("#memories article");
await shot("browse");
await page.goto(`${url}/ui#/memory/${rule.id}`);
await page.waitForSelector("#provenance-graph");
await shot("memory");
await page.goto(`${url}/ui#/working`);
await page.waitForSelector("tr.working-session button");
await page.click("tr.working-session button::-p-text(deploy-7)");
await page.waitForSelector("#session table.summary");
await shot("working");
await page.goto(`${url}/ui#/lifecycle`);
await page.waitForSelector("input[name=now]");
await page.type("input[name=now]", "2027-06-01T00:00:00Z");
await page.click("#maintain-preview");
await page.waitForSelector("#lifecycle-output ul");
await shot("lifecycle");
// From today: the chart starts with every memory still active.
await page.$eval("input[name=now]", (input) => {
  input.value = "";
});
await page.click("#decay-forecast");
await page.waitForSelector("#decay-chart");
await shot("decay");
await page.goto(`${url}/ui#/shared`);
await page.waitForSelector("article.quarantined");
await shot("shared");
await page.goto(`${url}/ui#/stats`);
await page.waitForSelector("table");
await shot("stats");
await browser.close();
server.kill();
await rm(dir, { recursive: true, force: true });
