/**
 * `hindsight serve` as shipped: the built CLI spawned on a free port, called over loopback,
 * and stopped with SIGTERM while a request is still in flight.
 */
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import { killServers, type Served, serve as startServe } from "./support/serve.js";

const ENV = {
  HINDSIGHT_DATA_DIR: "memory://",
  DATABASE_URL: undefined,
  HINDSIGHT_LOG_LEVEL: "info",
};

function serve(env: Record<string, string | undefined> = {}): Promise<Served> {
  return startServe({ ...ENV, ...env });
}

afterEach(killServers);

describe("hindsight serve", () => {
  it("serves the REST API with a key from the environment, then stops gracefully", async () => {
    const key = "e2e-key";
    const served = await serve({ HINDSIGHT_API_KEY: key, HINDSIGHT_LOG_LEVEL: "debug" });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const auth = { authorization: `Bearer ${key}` };
    const post = (path: string, body: unknown) =>
      fetch(`${served.url}${path}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    expect((await fetch(`${served.url}/health`)).status).toBe(200);
    const anonymous = await fetch(`${served.url}/v1/stats`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "UNAUTHORIZED" });

    const stored = await post("/v1/memories", {
      task_type: "deploy",
      summary: "部署失败：端口 8080 已被占用 (port 8080 already in use)",
      outcome: "failure",
    });
    expect(stored.status).toBe(201);
    const { id } = (await stored.json()) as { id: string };

    const fact = await post("/v1/facts", {
      key_text: "Free port 8080 before deploying",
      value_text: "lsof -i :8080",
      source_episode_ids: [id],
    });
    expect(fact.status).toBe(201);

    const recalled = await post("/v1/recall", {
      query_text: "端口 8080 部署",
      memory_layer: "all",
    });
    expect(recalled.status).toBe(200);
    const { results } = (await recalled.json()) as { results: { id: string }[] };
    expect(results.map((result) => result.id)).toContain(id);

    const summary = await post("/v1/summarize", { memory_ids: [id] });
    expect(summary.status).toBe(200);
    expect(((await summary.json()) as { summary: string }).summary).toContain("8080");

    const invalid = await post("/v1/memories", {
      task_type: "deploy",
      summary: "x",
      outcome: "meh",
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "INVALID_INPUT", field: "outcome" });

    const forget = (mode: string) =>
      fetch(`${served.url}/v1/memories/${id}?mode=${mode}`, { method: "DELETE", headers: auth });
    const forgotten = await forget("hard");
    expect(forgotten.status).toBe(200);
    expect(await forgotten.json()).toEqual({
      id,
      layer: "episodic",
      mode: "hard",
      status: "deleted",
    });
    const again = await forget("soft");
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: "NOT_FOUND", field: "memory_id" });

    const stats = await fetch(`${served.url}/v1/stats`, { headers: auth });
    expect(await stats.json()).toMatchObject({
      episodic: { total: 0 },
      semantic: { total: 1, active: 1 },
    });

    // A request whose body is still arriving when SIGTERM comes is answered, then the
    // process closes the store and exits 0.
    const body = JSON.stringify({ query_text: "deploy port 8080", memory_layer: "all" });
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${served.url}/v1/recall`,
        {
          method: "POST",
          agent: false,
          headers: { ...auth, "content-length": String(Buffer.byteLength(body)) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        served.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    expect(await inFlight).toBe(200);
    expect(await served.exited).toBe(0);
    expect(served.stderr()).toContain("SIGTERM");
    // A server warms recall up as it starts (core/recall/warm-up).
    expect(served.stderr()).toMatch(/warm-up: [1-8] recalls in \d+ ms/);
    await expect(fetch(`${served.url}/health`)).rejects.toThrow();
  });

  it("says so when the port is taken, with exit code 2", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(["serve", "--port", String(port)], ENV);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `hindsight: port ${port} is already in use; pick another with --port [CONFIG_INVALID]`,
      );
    } finally {
      blocker.close();
    }
  });

  it("rejects a port that is not one, with exit code 2", async () => {
    const result = await runCli(["serve", "--port", "80a"], ENV);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--port (port): must be an integer from 0 to 65535");
  });
});
