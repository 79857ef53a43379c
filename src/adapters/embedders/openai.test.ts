import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from "./openai.js";

interface Recorded {
  url: string;
  authorization: string | undefined;
  body: { model: string; input: string[] };
}

type Handler = (body: Recorded["body"], res: ServerResponse, call: number) => void | Promise<void>;

/** A vector whose first two components encode the text (`t<n>` → n + 1), unnormalised. */
function vectorFor(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  vector[0] = Number(text.replace(/\D/g, "") || "0") + 1;
  vector[1] = 1;
  return vector;
}

function json(res: ServerResponse, status: number, payload: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
}

/** Speaks the embeddings API: answers every input, in shuffled order when asked. */
function embeddings(dims = 4, shuffle = false): Handler {
  return (body, res) => {
    const data = body.input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: vectorFor(text, dims),
    }));
    if (shuffle) data.reverse().push(data.splice(0, 1)[0]!);
    json(res, 200, { object: "list", data, model: body.model, usage: {} });
  };
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Recorded["body"];
    requests.push({ url: req.url ?? "", authorization: req.headers.authorization, body });
    await handler(body, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const handle = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

function options(baseUrl: string, extra: Partial<OpenAIEmbedderOptions> = {}) {
  return { baseUrl, model: "test-model", dimensions: 4, ...extra };
}

const delays: number[] = [];
const deps = {
  sleep: async (ms: number) => {
    delays.push(ms);
  },
};
afterEach(() => {
  delays.length = 0;
});

/** The error a promise rejects with; fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as Error,
  );
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe("openai embedder", () => {
  it("batches requests and keeps input order when the server shuffles", async () => {
    const server = await startServer(embeddings(4, true));
    const embedder = await createOpenAIEmbedder(options(server.baseUrl, { batchSize: 64 }), deps);
    const texts = Array.from({ length: 150 }, (_, i) => `t${i}`);
    const vectors = await embedder.embed(texts);
    expect(server.requests.map((r) => r.body.input.length)).toEqual([64, 64, 22]);
    expect(vectors).toHaveLength(150);
    vectors.forEach((vector, i) => {
      expect(Math.round(vector[0]! / vector[1]!)).toBe(i + 1);
    });
    expect(embedder.id).toBe("openai:test-model");
  });

  it("returns unit-length Float32Arrays", async () => {
    const server = await startServer(embeddings(4));
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    const [vector] = await embedder.embed(["t41"]);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(norm(vector!)).toBeCloseTo(1, 5);
  });

  it("discovers dimensions with one probe request and tolerates a trailing slash", async () => {
    const server = await startServer(embeddings(7));
    const embedder = await createOpenAIEmbedder(
      { baseUrl: `${server.baseUrl}/`, model: "m" },
      deps,
    );
    expect(embedder.dimensions).toBe(7);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe("/v1/embeddings");
  });

  it("sends no request for an empty input", async () => {
    const server = await startServer(embeddings());
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("sends the API key as a bearer token and never echoes it in errors", async () => {
    const server = await startServer((_body, res) =>
      json(res, 401, { error: { message: "Incorrect API key provided: sk-secret" } }),
    );
    const embedder = await createOpenAIEmbedder(
      options(server.baseUrl, { apiKey: "sk-secret" }),
      deps,
    );
    const error = await rejection(embedder.embed(["a"]));
    expect(server.requests[0]!.authorization).toBe("Bearer sk-secret");
    expect(error).toMatchObject({ code: "EMBEDDER_FAILED" });
    expect(error.message).toContain("HTTP 401");
    expect(error.message).not.toContain("sk-secret");
  });

  it("retries a 429, honouring Retry-After", async () => {
    const ok = embeddings();
    const server = await startServer((body, res, call) =>
      call === 1
        ? json(res, 429, { error: "slow down" }, { "retry-after": "2" })
        : ok(body, res, call),
    );
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    expect(await embedder.embed(["a"])).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it("retries 5xx with growing backoff, then fails with EMBEDDER_FAILED", async () => {
    const server = await startServer((_body, res) => json(res, 500, { error: "boom" }));
    const embedder = await createOpenAIEmbedder(options(server.baseUrl, { maxRetries: 2 }), deps);
    const error = await rejection(embedder.embed(["a"]));
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ code: "EMBEDDER_FAILED" });
    expect(error.message).toContain(`${server.baseUrl}/embeddings`);
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("boom");
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(250);
    expect(delays[1]).toBeGreaterThanOrEqual(500);
  });

  it("does not retry other 4xx", async () => {
    const server = await startServer((_body, res) =>
      json(res, 400, { error: { message: "input too long" } }),
    );
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    await expect(embedder.embed(["a"])).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("input too long"),
    });
    expect(server.requests).toHaveLength(1);
  });

  it("times out a slow server", async () => {
    const ok = embeddings();
    const server = await startServer(async (body, res, call) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ok(body, res, call);
    });
    const embedder = await createOpenAIEmbedder(
      options(server.baseUrl, { timeoutMs: 50, maxRetries: 1 }),
      deps,
    );
    await expect(embedder.embed(["a"])).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("timed out after 50 ms"),
    });
    expect(server.requests).toHaveLength(2);
  });

  it("retries network errors, then fails", async () => {
    const server = await startServer(embeddings());
    await server.close();
    const embedder = await createOpenAIEmbedder(options(server.baseUrl, { maxRetries: 1 }), deps);
    await expect(embedder.embed(["a"])).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("network error"),
    });
    expect(delays).toHaveLength(1);
  });

  it("rejects malformed JSON", async () => {
    const server = await startServer((_body, res) => json(res, 200, "{not json"));
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    await expect(embedder.embed(["a"])).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("not JSON"),
    });
  });

  it("rejects a response of the wrong shape or count", async () => {
    const server = await startServer((body, res) =>
      json(res, 200, { data: [{ index: 0, embedding: ["x"] }], inputs: body.input.length }),
    );
    const embedder = await createOpenAIEmbedder(options(server.baseUrl), deps);
    await expect(embedder.embed(["a"])).rejects.toMatchObject({ code: "EMBEDDER_FAILED" });
    await expect(embedder.embed(["a", "b"])).rejects.toMatchObject({ code: "EMBEDDER_FAILED" });
  });

  it("rejects vectors of the wrong dimensions", async () => {
    const server = await startServer(embeddings(3));
    const embedder = await createOpenAIEmbedder(options(server.baseUrl, { dimensions: 4 }), deps);
    await expect(embedder.embed(["a"])).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("expected 4-dimensional"),
    });
  });

  it("rejects bad configuration with CONFIG_INVALID", async () => {
    await expect(createOpenAIEmbedder({ baseUrl: "not a url", model: "m" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
    });
    await expect(
      createOpenAIEmbedder({ baseUrl: "http://u:p@localhost/v1", model: "m", dimensions: 3 }),
    ).rejects.toMatchObject({ code: "CONFIG_INVALID" });
    await expect(
      createOpenAIEmbedder({ baseUrl: "http://localhost/v1", model: "m", batchSize: 0 }),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("batchSize"),
    });
  });
});
