/**
 * The HTTP app in-process, over real HTTP on loopback: every route, every error shape, auth,
 * Host/Origin checks, limits, metrics, MCP at /mcp, and agreement with the app's own OpenAPI
 * document — every response of this file is validated against the schema the document declares
 * for its route and status.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { register as globalRegistry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stderrLogger } from "../src/adapters/logger.js";
import { ErrorCode, HindsightError } from "../src/core/errors.js";
import type { MemoryApi } from "../src/core/memory-api.js";
import { createHttpApp, type HttpAppOptions } from "../src/http/app.js";
import { hostnameOf } from "../src/http/origin.js";
import { listen, type RunningServer } from "../src/http/server.js";
import { createHindsight, type Hindsight } from "../src/index.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
}

interface CallOptions {
  body?: unknown;
  /** Sent as is, instead of `body` as JSON. */
  raw?: string;
  headers?: Record<string, string>;
  /** Sends the body without Content-Length, in chunks. */
  chunked?: boolean;
  /** Off for calls outside the documented API (unknown routes, GET /mcp). */
  validate?: boolean;
}

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MIB = 1024 * 1024;

// ---- OpenAPI agreement: each response is checked against the document of the server that sent it.

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
};
type Operation = {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
  [key: string]: unknown;
};

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");

class OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Doc) {
    this.ajv.addSchema(doc as object, "openapi");
  }

  template(path: string): string | undefined {
    return Object.keys(this.doc.paths).find((template) =>
      new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
    );
  }

  validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#/${ref}` });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** Throws unless the document declares this status (and media type) and the body fits. */
  check(method: string, url: string, reply: Reply): string {
    const path = new URL(url).pathname;
    const template = this.template(path);
    const verb = method.toLowerCase();
    const operation = template ? this.doc.paths[template]?.[verb] : undefined;
    if (!template || !operation) throw new Error(`${method} ${path} is not in the document`);
    const response = operation.responses[String(reply.status)];
    if (!response) {
      throw new Error(
        `${method} ${template} answered ${reply.status}, not declared: ${reply.text}`,
      );
    }
    const mediaType = String(reply.headers["content-type"] ?? "")
      .split(";")[0]!
      .trim();
    if (response.content) {
      const media = response.content[mediaType];
      if (!media) throw new Error(`${method} ${template} ${reply.status}: ${mediaType} undeclared`);
      if (media.schema) {
        const ref = pointer("paths", template, verb, "responses", String(reply.status));
        const validate = this.validator(`${ref}/content/${pointer(mediaType)}/schema`);
        const data = mediaType === "application/json" ? JSON.parse(reply.text) : reply.text;
        if (!validate(data)) {
          throw new Error(
            `${method} ${template} ${reply.status} does not match its schema: ${this.ajv.errorsText(validate.errors)}\n${reply.text.slice(0, 500)}`,
          );
        }
      }
    }
    return `${verb} ${template} ${reply.status}`;
  }
}

const checkers = new Map<string, Promise<OpenApiChecker>>();
/** Responses validated, as `post /v1/recall 200`. */
const validated = new Set<string>();

function checkerFor(base: string): Promise<OpenApiChecker> {
  let checker = checkers.get(base);
  if (!checker) {
    checker = send(base, "GET", "/openapi.json", {}).then((reply) => {
      expect(reply.status).toBe(200);
      return new OpenApiChecker(reply.body as Doc);
    });
    checkers.set(base, checker);
  }
  return checker;
}

function send(base: string, method: string, path: string, options: CallOptions): Promise<Reply> {
  const url = new URL(path, base);
  const payload =
    options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(payload !== undefined && { "content-type": "application/json" }),
          ...(payload !== undefined &&
            !options.chunked && { "content-length": String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const json = String(res.headers["content-type"]).startsWith("application/json");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body: json && text ? JSON.parse(text) : undefined,
          });
        });
        res.on("error", reject);
      },
    );
    // The server may answer 413 and close before the whole body is sent.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    if (payload !== undefined && options.chunked) {
      const size = 64 * 1024;
      for (let at = 0; at < payload.length; at += size) req.write(payload.slice(at, at + size));
      req.end();
    } else {
      req.end(payload);
    }
  });
}

/** One request over a fresh connection, validated against the document unless told not to. */
async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const reply = await send(base, method, path, options);
  if (options.validate !== false) {
    const checker = await checkerFor(base);
    validated.add(checker.check(method, new URL(path, base).toString(), reply));
  }
  return reply;
}

function expectError(reply: Reply, status: number, code: string, field?: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(reply.body).sort()).toEqual(
    field === undefined ? ["code", "message"] : ["code", "field", "message"],
  );
  expect(reply.body.code).toBe(code);
  expect(typeof reply.body.message).toBe("string");
  if (field !== undefined) expect(reply.body.field).toBe(field);
  expect(reply.text).not.toMatch(/\bat .+:\d+:\d+/); // no stack traces
}

async function start(
  memory: MemoryApi,
  options: HttpAppOptions = {},
): Promise<{ base: string; server: RunningServer; logs: string[] }> {
  const logs: string[] = [];
  const logger = stderrLogger("debug", (line) => {
    logs.push(line);
    return true;
  });
  const app = createHttpApp(memory, { logger, ...options });
  const server = await listen(app, { host: "127.0.0.1", port: 0 });
  return { base: server.url, server, logs };
}

const episode = {
  task_type: "deploy",
  summary: "Deploy to production failed: port 8080 already in use",
  outcome: "failure",
  tags: ["k8s"],
  metadata: { ticket: "OPS-1", nested: { list: [1, "two", null] } },
  user_id: "u1",
};

const servers: RunningServer[] = [];
const stores: Hindsight[] = [];

async function openMemory(): Promise<Hindsight> {
  const memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
  stores.push(memory);
  return memory;
}

async function serve(memory: MemoryApi, options: HttpAppOptions = {}) {
  const started = await start(memory, options);
  servers.push(started.server);
  return started;
}

afterAll(async () => {
  for (const server of servers) await server.close(1000);
  for (const memory of stores) await memory.close();
});

describe("small parts", () => {
  it("reduces Host headers and bind addresses to comparable host names", () => {
    expect(hostnameOf("Example.COM:8080")).toBe("example.com");
    expect(hostnameOf("127.0.0.1:80")).toBe("127.0.0.1");
    expect(hostnameOf("[::1]:8080")).toBe("[::1]");
    expect(hostnameOf("::1")).toBe("[::1]");
    expect(hostnameOf("localhost")).toBe("localhost");
  });

  it("refuses an empty API key and a body limit that is not a positive integer", async () => {
    const memory = {} as MemoryApi;
    expect(() => createHttpApp(memory, { apiKey: " " })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field: "apiKey" }),
    );
    expect(() => createHttpApp(memory, { bodyLimitBytes: 0 })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field: "bodyLimitBytes" }),
    );
  });
});

describe("REST routes", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory()));
  });

  it("stores, recalls, summarises, forgets and counts", async () => {
    const stored = await call(base, "POST", "/v1/memories", { body: episode });
    expect(stored.status).toBe(201);
    expect(stored.body).toEqual({ id: expect.stringMatching(UUID) });
    const id = stored.body.id as string;

    const fact = await call(base, "POST", "/v1/facts", {
      body: {
        key_text: "Check that the port is free before deploying",
        value_text: "lsof -i :8080",
        task_type: "deploy",
        source_episode_ids: [id],
      },
    });
    expect(fact.status).toBe(201);
    expect(fact.body.id).toMatch(UUID);

    const recalled = await call(base, "POST", "/v1/recall", {
      body: { query_text: "deploy port 8080 in use", memory_layer: "all", top_k: 5 },
    });
    expect(recalled.status).toBe(200);
    const results = recalled.body.results as { id: string; layer: string; occurred_at?: string }[];
    expect(results.map((r) => r.id)).toEqual(expect.arrayContaining([id, fact.body.id]));
    const memory = results.find((r) => r.id === id)!;
    expect(memory.layer).toBe("episodic");
    expect(memory.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const byIds = await call(base, "POST", "/v1/summarize", {
      body: { memory_ids: [id, fact.body.id], max_tokens: 100 },
    });
    expect(byIds.status).toBe(200);
    expect(byIds.body.memory_ids).toEqual([id, fact.body.id]);
    expect(byIds.body.summary).toContain("8080");

    const byQuery = await call(base, "POST", "/v1/summarize", {
      body: { query_text: "deploy port" },
    });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.max_tokens).toBe(200);

    const soft = await call(base, "DELETE", `/v1/memories/${id}`);
    expect(soft.status).toBe(200);
    expect(soft.body).toEqual({ id, layer: "episodic", mode: "soft", status: "archived" });

    const stats = await call(base, "GET", "/v1/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.episodic).toEqual({ total: 1, active: 0, archived: 1 });
    expect(stats.body.semantic).toEqual({ total: 1, active: 1, archived: 0 });
    expect(stats.body.store).toMatch(/^pglite:/);

    const hard = await call(base, "DELETE", `/v1/memories/${fact.body.id}?mode=hard`);
    expect(hard.body).toEqual({
      id: fact.body.id,
      layer: "semantic",
      mode: "hard",
      status: "deleted",
    });
    expectError(
      await call(base, "DELETE", `/v1/memories/${fact.body.id}`),
      404,
      "NOT_FOUND",
      "memory_id",
    );

    // Both forgets are in the audit log, newest first.
    const audit = await call(base, "GET", "/v1/audit?limit=10");
    expect(audit.status).toBe(200);
    expect(
      (audit.body.entries as { operation: string; memory_id: string }[]).map((entry) => [
        entry.operation,
        entry.memory_id,
      ]),
    ).toEqual([
      ["delete", fact.body.id],
      ["forget", id],
    ]);
  });

  it("gets a memory by id and lists memories by tag, page by page", async () => {
    const tagged = [] as string[];
    for (const tags of [["browse", "a"], ["browse", "b"], ["browse"]]) {
      const stored = await call(base, "POST", "/v1/memories", {
        body: {
          task_type: "browse",
          summary: `Browsed ${tags.join(" ")}`,
          outcome: "success",
          tags,
        },
      });
      tagged.push(stored.body.id);
    }
    const got = await call(base, "GET", `/v1/memories/${tagged[0]}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: tagged[0], layer: "episodic", tags: ["browse", "a"] });
    expect(got.body.provenance).toEqual({
      sources: [],
      consolidated_into: [],
      supersedes: [],
      superseded_by: null,
    });
    expectError(await call(base, "GET", `/v1/memories/${UNKNOWN}`), 404, "NOT_FOUND", "memory_id");

    // A list in the query: the parameter repeated, or comma-separated; stray commas add no
    // empty tag (as on the command line).
    for (const query of ["tags=a&tags=b", "tags=a,b", "tags=a,,b,&tags="]) {
      const listed = await call(base, "GET", `/v1/memories?${query}&task_type=browse`);
      expect(listed.status).toBe(200);
      expect(listed.body.memories.map((m: { id: string }) => m.id).sort()).toEqual(
        [tagged[0], tagged[1]].sort(),
      );
    }
    const first = await call(base, "GET", "/v1/memories?tags=browse&limit=2");
    expect(first.body).toMatchObject({ total: 3, next_cursor: expect.any(String) });
    const second = await call(
      base,
      "GET",
      `/v1/memories?tags=browse&limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(second.body).toMatchObject({ total: 3, next_cursor: null });
    expect([...first.body.memories, ...second.body.memories].map((m) => m.id)).toEqual(
      [...tagged].reverse(),
    );
    expectError(await call(base, "GET", "/v1/memories?limit=0"), 400, "INVALID_INPUT", "limit");

    const patched = await call(base, "PATCH", `/v1/memories/${tagged[2]}`, {
      body: { summary: "Browsed nothing in particular", tags: ["browse", "c"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ tags: ["browse", "c"], changed: ["summary", "tags"] });
    expectError(
      await call(base, "PATCH", `/v1/memories/${tagged[2]}`, { body: { key_text: "x" } }),
      400,
      "INVALID_INPUT",
      "key_text",
    );
    expectError(
      await call(base, "PATCH", `/v1/memories/${UNKNOWN}`, { body: { summary: "x" } }),
      404,
      "NOT_FOUND",
      "memory_id",
    );
    // Export a page, and import it back: everything is stored already, so nothing changes.
    const page = await call(base, "GET", "/v1/export?limit=2&with_vectors=true");
    expect(page.status).toBe(200);
    expect(page.body.header).toMatchObject({ format: "hindsight-export", with_vectors: true });
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const again = await call(base, "POST", "/v1/import", {
      body: { records: page.body.records, embedder: page.body.header.embedder },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ imported: 0, embedded: 0 });
    expectError(
      await call(base, "POST", "/v1/import", { body: { records: [{ kind: "memory" }] } }),
      400,
      "INVALID_INPUT",
      "records[0].layer",
    );
    for (const id of tagged) await call(base, "DELETE", `/v1/memories/${id}?mode=hard`);
  });

  it("serves the inspector's files with a same-origin policy, and nothing outside them", async () => {
    const page = await call(base, "GET", "/ui", { validate: false });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(page.text).toContain('<script type="module" src="/ui/main.js">');
    const script = await call(base, "GET", "/ui/main.js", { validate: false });
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    for (const path of ["/ui/..%2Fpackage.json", "/ui/nothing.js", "/ui/..%2F..%2Fetc%2Fpasswd"]) {
      expect((await call(base, "GET", path, { validate: false })).status).toBe(404);
    }
  });

  it("answers /health with the store reachable", async () => {
    const reply = await call(base, "GET", "/health");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "ok" });
  });

  it("rejects malformed JSON and non-object bodies as the body's fault", async () => {
    const malformed = await call(base, "POST", "/v1/memories", { raw: '{"task_type": "deploy",' });
    expectError(malformed, 400, "INVALID_INPUT", "body");
    expect(malformed.body.message).toMatch(/^body: malformed JSON/);
    expectError(await call(base, "POST", "/v1/recall", { raw: "" }), 400, "INVALID_INPUT", "body");
    expectError(
      await call(base, "POST", "/v1/recall", { body: ["x"] }),
      400,
      "INVALID_INPUT",
      "body",
    );
  });

  it("names the field at fault in bad input", async () => {
    const outcome = await call(base, "POST", "/v1/memories", {
      body: { ...episode, outcome: "maybe" },
    });
    expectError(outcome, 400, "INVALID_INPUT", "outcome");
    expect(outcome.body.message).toMatch(/^outcome: /);

    const unknown = await call(base, "POST", "/v1/facts", {
      body: { key_text: "k", value_text: "v", colour: "red" },
    });
    expectError(unknown, 400, "INVALID_INPUT", "colour");

    const nested = await call(base, "POST", "/v1/memories", {
      body: { ...episode, tags: ["ok", ""] },
    });
    expectError(nested, 400, "INVALID_INPUT", "tags.1");

    expectError(
      await call(base, "POST", "/v1/recall", { body: { query_text: "x", top_k: 99 } }),
      400,
      "INVALID_INPUT",
      "top_k",
    );
    expectError(
      await call(base, "POST", "/v1/summarize", { body: { max_tokens: 100 } }),
      400,
      "INVALID_INPUT",
      "memory_ids",
    );
    expectError(
      await call(base, "DELETE", "/v1/memories/not-a-uuid"),
      400,
      "INVALID_INPUT",
      "memory_id",
    );
    expectError(
      await call(base, "DELETE", "/v1/memories/00000000-0000-4000-8000-000000000000?mode=shred"),
      400,
      "INVALID_INPUT",
      "mode",
    );
  });

  it("answers 404 for unknown memories and unknown routes", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expectError(
      await call(base, "DELETE", `/v1/memories/${missing}`),
      404,
      "NOT_FOUND",
      "memory_id",
    );
    const summary = await call(base, "POST", "/v1/summarize", { body: { memory_ids: [missing] } });
    expectError(summary, 404, "NOT_FOUND", "memory_ids");
    expectError(
      await call(base, "GET", "/v1/nothing", { validate: false }),
      404,
      "ROUTE_NOT_FOUND",
    );
    expectError(await call(base, "GET", "/v1/recall", { validate: false }), 404, "ROUTE_NOT_FOUND");
  });

  it("refuses bodies over the limit with 413, whether announced or streamed", async () => {
    const big = { ...episode, summary: "x".repeat(MIB + 10) };
    expectError(await call(base, "POST", "/v1/memories", { body: big }), 413, "PAYLOAD_TOO_LARGE");
    expectError(
      await call(base, "POST", "/v1/memories", { body: big, chunked: true }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    const mcp = await call(base, "POST", "/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(MIB) } },
      headers: { accept: "application/json, text/event-stream" },
      chunked: true,
    });
    expectError(mcp, 413, "PAYLOAD_TOO_LARGE");
    // Under the limit but over the schema's summary limit: the schema speaks, not the transport.
    const long = await call(base, "POST", "/v1/memories", {
      body: { ...episode, summary: "x".repeat(9_000) },
      chunked: true,
    });
    expectError(long, 400, "INVALID_INPUT", "summary");
  });

  it("honours a configured body limit", async () => {
    const small = await serve(await openMemory(), { bodyLimitBytes: 100 });
    const reply = await call(small.base, "POST", "/v1/memories", { body: episode });
    expectError(reply, 413, "PAYLOAD_TOO_LARGE");
    expect(reply.body.message).toContain("100 bytes");
  });
});

describe("lifecycle routes", () => {
  let base: string;
  let memory: Hindsight;

  beforeAll(async () => {
    memory = await openMemory();
    ({ base } = await serve(memory));
  });

  it("consolidates, rates, maintains, restores and tells a memory's history", async () => {
    const { ids } = await memory.storeEpisodicBatch(
      Array.from({ length: 10 }, (_, i) => ({
        task_type: "deploy",
        summary: i < 4 ? `Deploy ${i} failed: port 8080 in use` : `Deploy ${i} went fine`,
        outcome: i < 4 ? "failure" : "success",
      })),
    );
    const consolidated = await call(base, "POST", "/v1/consolidate", { body: {} });
    expect(consolidated.status).toBe(200);
    expect(consolidated.body.groups).toEqual([
      { task_type: "deploy", user_id: null, agent_id: null, episodes: 10, method: "statistical" },
    ]);
    const outcomes = consolidated.body.created.find(
      (c: { key: string }) => c.key === "Outcomes of deploy tasks",
    );
    expect(outcomes.sources.sort()).toEqual([...ids].sort());

    const rated = await call(base, "POST", "/v1/feedback", {
      body: { memory_id: outcomes.id, useful: false, reason: "too vague" },
    });
    expect(rated.status).toBe(200);
    expect(rated.body).toMatchObject({ id: outcomes.id, layer: "semantic", useful: false });
    expect(rated.body.confidence).toBeLessThan(rated.body.previous_confidence);

    // Maintenance now, then with `now` far ahead: every episode has faded.
    const now = await call(base, "POST", "/v1/maintain", { body: {} });
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ archived: 0, episodic: { scored: 10 } });
    const later = await call(base, "POST", "/v1/maintain", {
      body: { now: new Date(Date.now() + 120 * 86_400_000).toISOString() },
    });
    expect(later.body.episodic.archived).toBe(10);

    const restored = await call(base, "POST", `/v1/memories/${ids[0]}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({
      id: ids[0],
      layer: "episodic",
      previous_status: "archived",
      status: "active",
    });
    const history = await call(base, "GET", `/v1/memories/${ids[0]}/history`);
    expect(history.status).toBe(200);
    expect(history.body.events.map((e: { event: string }) => e.event)).toEqual([
      "created",
      "consolidated",
      "archived",
      "restored",
    ]);
    expect(history.body.consolidated_into).toContain(outcomes.id);
  });

  it("says when a stored fact supersedes another", async () => {
    const first = await call(base, "POST", "/v1/facts", {
      body: { key_text: "Release day", value_text: "Tuesday" },
    });
    const second = await call(base, "POST", "/v1/facts", {
      body: { key_text: "Release day", value_text: "Thursday, since June" },
    });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({ id: expect.stringMatching(UUID), superseded: [first.body.id] });
    const again = await call(base, "POST", "/v1/facts", {
      body: { key_text: "Release day", value_text: "Thursday, since June" },
    });
    expect(again.body).toEqual({ id: second.body.id, merged_into: second.body.id });
  });

  it("names the field at fault and answers 404 for unknown memories", async () => {
    expectError(
      await call(base, "POST", "/v1/maintain", { body: { now: "next tuesday" } }),
      400,
      "INVALID_INPUT",
      "now",
    );
    expectError(
      await call(base, "POST", "/v1/feedback", { body: { memory_id: UNKNOWN, useful: "very" } }),
      400,
      "INVALID_INPUT",
      "useful",
    );
    expectError(
      await call(base, "POST", "/v1/feedback", { body: { memory_id: UNKNOWN, useful: true } }),
      404,
      "NOT_FOUND",
      "memory_id",
    );
    expectError(
      await call(base, "GET", `/v1/memories/${UNKNOWN}/history`),
      404,
      "NOT_FOUND",
      "memory_id",
    );
    expectError(
      await call(base, "POST", "/v1/memories/nope/restore"),
      400,
      "INVALID_INPUT",
      "memory_id",
    );
  });
});

describe("shared memory routes", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory()));
  });

  it("grants, rates sources, quarantines, reviews and revokes, each as documented", async () => {
    const granted = await call(base, "POST", "/v1/groups/billing/grant", {
      body: { agent_ids: ["a1", "a2"], reason: "billing rota" },
    });
    expect(granted.status).toBe(200);
    expect(granted.body.members.map((m: { agent_id: string }) => m.agent_id)).toEqual(["a1", "a2"]);
    const groups = await call(base, "GET", "/v1/groups");
    expect(groups.body.groups).toHaveLength(1);
    const rated = await call(base, "POST", "/v1/sources/crm-export", { body: { trust: "low" } });
    expect(rated.body).toMatchObject({ source: "crm-export", trust: "low", note: null });
    const sources = await call(base, "GET", "/v1/sources");
    expect(sources.body).toMatchObject({ default_trust: "low" });

    const stored = await call(base, "POST", "/v1/facts", {
      body: {
        key_text: "Invoice day",
        value_text: "invoices go out on the 3rd",
        source: "crm-export",
        agent_id: "a1",
        shared_group: "billing",
      },
    });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ shared_group: "billing", review_status: "quarantined" });
    const pending = await call(base, "GET", "/v1/quarantine?limit=10");
    expect(pending.body.memories).toHaveLength(1);
    const reviewed = await call(base, "POST", `/v1/memories/${stored.body.id}/review`, {
      body: { decision: "confirm", reviewer: "finance-lead" },
    });
    expect(reviewed.body).toMatchObject({ review_status: "confirmed", changed: true });
    const revoked = await call(base, "POST", "/v1/groups/billing/revoke", {
      body: { agent_ids: ["a2"] },
    });
    expect(revoked.body.members).toHaveLength(1);

    expectError(
      await call(base, "POST", "/v1/facts", {
        body: {
          key_text: "k",
          value_text: "v",
          source: "crm-export",
          agent_id: "a2",
          shared_group: "billing",
        },
      }),
      403,
      "PERMISSION_DENIED",
      "agent_id",
    );
    expectError(
      await call(base, "POST", "/v1/sources/crm-export", { body: { trust: "sometimes" } }),
      400,
      "INVALID_INPUT",
      "trust",
    );
    expectError(
      await call(base, "POST", `/v1/memories/${UNKNOWN}/review`, {
        body: { decision: "reject", reviewer: "x" },
      }),
      404,
      "NOT_FOUND",
      "memory_id",
    );
  });
});

describe("working memory routes", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory()));
  });

  it("appends, reads within budget, compresses and ends a session", async () => {
    const goal = await call(base, "POST", "/v1/working/task-1/items", {
      body: { kind: "goal", role: "user", content: "Rotate the database password" },
    });
    expect(goal.status).toBe(201);
    expect(goal.body).toMatchObject({ session: "task-1", seq: 1, budget: 4000, compressed: false });
    // Long enough that folding them into a summary saves tokens (a compression that would not
    // is not made).
    const log = " The rotation log lists every service that reloaded the secret and when.".repeat(
      6,
    );
    for (const content of [`Generated a new password.${log}`, `Updated the secret store.${log}`]) {
      const reply = await call(base, "POST", "/v1/working/task-1/items", {
        body: { kind: "result", role: "tool", content },
      });
      expect(reply.status).toBe(201);
    }
    const got = await call(base, "POST", "/v1/working/task-1/budget", { body: { budget: 2000 } });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ session: "task-1", budget: 2000, summary: null });
    expect(got.body.items).toHaveLength(3);
    expect(got.body.context).toContain("#1 goal (user): Rotate the database password");
    // A GET only reads: a budget there is refused, not applied behind the reader's back.
    expectError(
      await call(base, "GET", "/v1/working/task-1?budget=500"),
      400,
      "INVALID_INPUT",
      "budget",
    );
    expect((await call(base, "GET", "/v1/working/task-1")).body).toMatchObject({ budget: 2000 });

    const compressed = await call(base, "POST", "/v1/working/task-1/compress");
    expect(compressed.status).toBe(200);
    expect(compressed.body.items.map((item: { kind: string }) => item.kind)).toEqual(["goal"]);
    expect(compressed.body.summary).toMatchObject({ method: "deterministic", items_summarized: 2 });

    const listed = await call(base, "GET", "/v1/working?limit=10");
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toContainEqual(
      expect.objectContaining({
        session: "task-1",
        agent_id: null,
        budget: 2000,
        goal: "Rotate the database password",
        tokens: compressed.body.tokens,
      }),
    );
    expectError(await call(base, "GET", "/v1/working?limit=x"), 400, "INVALID_INPUT", "limit");

    const ended = await call(base, "POST", "/v1/working/task-1/end", {
      body: { task_type: "credentials", outcome: "success" },
    });
    expect(ended.status).toBe(201);
    expect(ended.body.episodic_id).toMatch(UUID);
    expectError(await call(base, "GET", "/v1/working/task-1"), 404, "NOT_FOUND", "session_id");
  });

  it("compresses a session through /v1/summarize with session_id", async () => {
    await call(base, "POST", "/v1/working/task-2/items", {
      body: { kind: "goal", role: "user", content: "Archive old invoices" },
    });
    const list = " Each invoice is listed with its customer, amount and archive path.".repeat(6);
    await call(base, "POST", "/v1/working/task-2/items", {
      body: { role: "assistant", content: `Found 120 invoices older than 2020.${list}` },
    });
    const reply = await call(base, "POST", "/v1/summarize", { body: { session_id: "task-2" } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ method: "working_memory", memory_ids: [] });
    expect(reply.body.summary).toContain("Goal: Archive old invoices");
    expect(reply.body.summary).toContain("Found 120 invoices older than 2020");
  });

  it("names bad input by field", async () => {
    expectError(
      await call(base, "POST", "/v1/working/task-3/items", {
        body: { role: "robot", content: "x" },
      }),
      400,
      "INVALID_INPUT",
      "role",
    );
    expectError(
      await call(base, "POST", "/v1/working/task-3/budget", { body: { budget: "ten" } }),
      400,
      "INVALID_INPUT",
      "budget",
    );
    expectError(
      await call(base, "POST", "/v1/working/task-3/end", {
        body: { task_type: "t", outcome: "meh" },
      }),
      400,
      "INVALID_INPUT",
      "outcome",
    );
  });
});

describe("failures of the store, the embedder and the code", () => {
  function failing(error: unknown): MemoryApi {
    const fail = async () => {
      throw error;
    };
    return {
      storeEpisodic: fail,
      storeEpisodicBatch: fail,
      storeSemantic: fail,
      recall: fail,
      get: fail,
      list: fail,
      update: fail,
      exportMemories: fail,
      importMemories: fail,
      forget: fail,
      audit: fail,
      summarize: fail,
      stats: fail,
      maintain: fail,
      consolidate: fail,
      feedback: fail,
      restore: fail,
      history: fail,
      ping: fail,
      migrate: fail,
      workingAppend: fail,
      workingGet: fail,
      workingCompress: fail,
      workingEnd: fail,
      workingList: fail,
      grant: fail,
      revoke: fail,
      groups: fail,
      setTrust: fail,
      sources: fail,
      quarantined: fail,
      review: fail,
      access: fail,
      close: async () => {},
    };
  }

  it("maps STORAGE_FAILED and EMBEDDER_FAILED to 503, logging the cause and answering without it", async () => {
    const storage = await serve(
      failing(
        new HindsightError(
          ErrorCode.STORAGE_FAILED,
          "recalling: connect ECONNREFUSED 127.0.0.1:5432; sorry, too many clients already",
        ),
      ),
    );
    const reply = await call(storage.base, "POST", "/v1/recall", { body: { query_text: "x" } });
    expectError(reply, 503, "STORAGE_FAILED");
    expect(reply.body.message).toBe("the memory store failed; retrying later may help");
    expect(reply.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|too many clients/);
    expect(storage.logs.join("")).toContain(
      "POST /v1/recall failed: recalling: connect ECONNREFUSED",
    );

    const embedder = await serve(
      failing(new HindsightError(ErrorCode.EMBEDDER_FAILED, "embedder openai failed: timeout")),
    );
    const stored = await call(embedder.base, "POST", "/v1/memories", { body: episode });
    expectError(stored, 503, "EMBEDDER_FAILED");
  });

  it("maps CONFIG_INVALID to 500, the setting named in the log only", async () => {
    const config = await serve(
      failing(new HindsightError(ErrorCode.CONFIG_INVALID, "recall.floor: too big")),
    );
    const reply = await call(config.base, "GET", "/v1/stats");
    expectError(reply, 500, "CONFIG_INVALID");
    expect(reply.body.message).toBe("the memory server is misconfigured");
    expect(config.logs.join("")).toContain("recall.floor: too big");
  });

  it("hides unknown errors behind INTERNAL and logs them with their stack", async () => {
    const bug = await serve(failing(new TypeError("secret detail: cannot read x of undefined")));
    const reply = await call(bug.base, "POST", "/v1/facts", {
      body: { key_text: "k", value_text: "v" },
    });
    expectError(reply, 500, "INTERNAL");
    expect(reply.body.message).toBe("internal error");
    expect(reply.text).not.toContain("secret");
    const log = bug.logs.join("");
    expect(log).toContain("POST /v1/facts failed unexpectedly");
    expect(log).toContain("secret detail");
    expect(log).toContain("TypeError");
  });

  it("answers /health 503 and reports the store down in /metrics when it does not answer", async () => {
    const down = await serve(failing(new Error("ECONNREFUSED 10.0.0.7:5432")));
    const health = await call(down.base, "GET", "/health");
    expectError(health, 503, "STORAGE_FAILED");
    expect(health.text).not.toContain("10.0.0.7");
    const metrics = await call(down.base, "GET", "/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^hindsight_store_up 0$/m);
    expect(metrics.text).not.toMatch(/^hindsight_memories\{/m);
  });
});

describe("API key", () => {
  const key = "s3cret-key";
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory(), { apiKey: key }));
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("is required on /v1, /mcp and /metrics, with WWW-Authenticate", async () => {
    for (const [method, path] of [
      ["GET", "/v1/stats"],
      ["POST", "/v1/recall"],
      ["DELETE", "/v1/memories/00000000-0000-4000-8000-000000000000"],
      ["POST", "/mcp"],
      ["GET", "/metrics"],
    ] as const) {
      const reply = await call(base, method, path, { body: method === "POST" ? {} : undefined });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(reply.headers["www-authenticate"]).toMatch(/^Bearer realm="hindsight"/);
    }
  });

  it("refuses a wrong key, or another scheme", async () => {
    const wrong = await call(base, "GET", "/v1/stats", { headers: bearer("s3cret-kez") });
    expectError(wrong, 401, "UNAUTHORIZED");
    expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
    const prefix = await call(base, "GET", "/v1/stats", { headers: bearer("s3cret") });
    expectError(prefix, 401, "UNAUTHORIZED");
    const basic = await call(base, "GET", "/v1/stats", {
      headers: { authorization: `Basic ${Buffer.from(`x:${key}`).toString("base64")}` },
    });
    expectError(basic, 401, "UNAUTHORIZED");
  });

  it("lets the right key through", async () => {
    const stats = await call(base, "GET", "/v1/stats", { headers: bearer(key) });
    expect(stats.status).toBe(200);
    const stored = await call(base, "POST", "/v1/memories", {
      body: episode,
      headers: { authorization: `bearer  ${key}` },
    });
    expect(stored.status).toBe(201);
    const metrics = await call(base, "GET", "/metrics", { headers: bearer(key) });
    expect(metrics.status).toBe(200);
  });

  it("checks the key before reading the body", async () => {
    const big = { ...episode, summary: "x".repeat(MIB + 10) };
    expectError(await call(base, "POST", "/v1/memories", { body: big }), 401, "UNAUTHORIZED");
  });

  it("leaves /health and /openapi.json open, and documents the bearer scheme", async () => {
    expect((await call(base, "GET", "/health")).status).toBe(200);
    const doc = (await call(base, "GET", "/openapi.json")).body as Doc;
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    expect(doc.paths["/v1/recall"]?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/mcp"]?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/metrics"]?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/health"]?.get?.security).toBeUndefined();
    expect(doc.paths["/v1/recall"]?.post?.responses["401"]).toBeDefined();
    expect(doc.paths["/health"]?.get?.responses["401"]).toBeUndefined();
  });

  it("serves MCP to a real MCP client that sends the key", async () => {
    const client = new Client({ name: "http-test", version: "0.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), {
      requestInit: { headers: bearer(key) },
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("memory_recall");
      const result = await client.callTool({
        name: "memory_recall",
        arguments: { query_text: "deploy port 8080", memory_layer: "all" },
      });
      expect(result.isError).toBeFalsy();
      expect(
        (result.structuredContent as { results: { summary?: string }[] }).results[0]?.summary,
      ).toContain("8080");
    } finally {
      await client.close();
    }
  });
});

describe("rate limit", () => {
  const keyA = "key-a";
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory(), { apiKey: keyA, rateLimitPerMinute: 3 }));
  });

  it("answers 429 with Retry-After once a client spends its budget, per client", async () => {
    const headers = { authorization: `Bearer ${keyA}` };
    for (let n = 0; n < 3; n++) {
      const ok = await call(base, "GET", "/v1/stats", { headers });
      expect(ok.status).toBe(200);
      expect(ok.headers.ratelimit).toBeDefined();
    }
    const limited = await call(base, "POST", "/v1/recall", { headers, body: { query_text: "x" } });
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // MCP shares the budget: it is the same client.
    expect((await call(base, "POST", "/mcp", { headers, body: {} })).status).toBe(429);
  });

  it("does not let requests with a wrong key spend anyone's budget, nor count health checks", async () => {
    for (let n = 0; n < 5; n++) {
      const wrong = await call(base, "GET", "/v1/stats", {
        headers: { authorization: "Bearer nope" },
      });
      expectError(wrong, 401, "UNAUTHORIZED");
      expect((await call(base, "GET", "/health")).status).toBe(200);
    }
  });

  it("counts a client without keys by its address, whatever bearer token it makes up", async () => {
    const open = await serve(await openMemory(), { rateLimitPerMinute: 2 });
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) {
      const reply = await call(open.base, "GET", "/v1/stats", {
        headers: { authorization: `Bearer made-up-${n}` },
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("documents 429 on the limited routes", async () => {
    const doc = (await call(base, "GET", "/openapi.json")).body as Doc;
    expect(doc.paths["/v1/recall"]?.post?.responses["429"]).toBeDefined();
    expect(doc.paths["/health"]?.get?.responses["429"]).toBeUndefined();
  });

  it("refuses a limit that is not a positive integer", async () => {
    const memory = await openMemory();
    expect(() => createHttpApp(memory, { rateLimitPerMinute: 0 })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field: "rateLimitPerMinute" }),
    );
  });
});

describe("Host and Origin checks", () => {
  let base: string;
  let port: number;

  beforeAll(async () => {
    const started = await serve(await openMemory(), {
      allowedHosts: ["memory.internal"],
      allowedOrigins: ["https://app.example"],
    });
    base = started.base;
    port = started.server.port;
  });

  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  };
  const mcpHeaders = { accept: "application/json, text/event-stream" };

  it("refuses JSON-RPC batches on /mcp: one message per request, as MCP 2025-06-18 says", async () => {
    const batch = Array.from({ length: 100 }, (_, index) => ({
      jsonrpc: "2.0",
      id: index + 2,
      method: "tools/call",
      params: { name: "memory_stats", arguments: {} },
    }));
    const reply = await call(base, "POST", "/mcp", { headers: mcpHeaders, body: batch });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    // A single message, bare or as a batch of one, is answered.
    for (const body of [initialize, [initialize]]) {
      expect((await call(base, "POST", "/mcp", { headers: mcpHeaders, body })).status).toBe(200);
    }
  });

  it("refuses a foreign Host on /mcp and /v1 (DNS rebinding)", async () => {
    const mcp = await call(base, "POST", "/mcp", {
      body: initialize,
      headers: { ...mcpHeaders, host: `evil.example:${port}` },
    });
    expectError(mcp, 403, "FORBIDDEN", "Host");
    const rest = await call(base, "GET", "/v1/stats", { headers: { host: "evil.example" } });
    expectError(rest, 403, "FORBIDDEN", "Host");
  });

  it("refuses a foreign Origin", async () => {
    for (const origin of ["http://evil.example", "null", "http://localhost.evil.example"]) {
      const reply = await call(base, "POST", "/mcp", {
        body: initialize,
        headers: { ...mcpHeaders, origin },
      });
      expectError(reply, 403, "FORBIDDEN", "Origin");
    }
    const rest = await call(base, "POST", "/v1/recall", {
      body: { query_text: "x" },
      headers: { origin: "https://evil.example" },
    });
    expectError(rest, 403, "FORBIDDEN", "Origin");
  });

  it("accepts loopback names, configured hosts and configured origins", async () => {
    const accepted: Record<string, string>[] = [
      { host: `localhost:${port}` },
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
      { host: `[::1]:${port}`, origin: "http://localhost:3000" },
      { host: "Memory.Internal:8080" },
      { host: "memory.internal", origin: "https://app.example" },
    ];
    for (const headers of accepted) {
      const reply = await call(base, "GET", "/v1/stats", { headers });
      expect(reply.status, JSON.stringify(headers)).toBe(200);
    }
    const mcp = await call(base, "POST", "/mcp", {
      body: initialize,
      headers: { ...mcpHeaders, origin: "https://app.example" },
      chunked: true,
    });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.serverInfo.name).toBeTypeOf("string");
  });

  it("leaves /health open to any Host", async () => {
    const reply = await call(base, "GET", "/health", { headers: { host: "evil.example" } });
    expect(reply.status).toBe(200);
  });

  it("hands other methods on /mcp to the MCP handler", async () => {
    const reply = await call(base, "GET", "/mcp", { validate: false });
    expect(reply.status).toBe(405);
  });
});

describe("metrics", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await serve(await openMemory()));
  });

  it("counts requests by route template and status, and memories by layer and status", async () => {
    const { body } = await call(base, "POST", "/v1/memories", { body: episode });
    await call(base, "POST", "/v1/memories", { body: episode });
    await call(base, "POST", "/v1/facts", { body: { key_text: "k", value_text: "v" } });
    await call(base, "DELETE", `/v1/memories/${body.id}`);
    await call(base, "POST", "/v1/recall", { raw: "{" });
    await call(base, "GET", "/nowhere", { validate: false });

    const reply = await call(base, "GET", "/metrics");
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = reply.text;
    expect(text).toContain(
      'hindsight_http_requests_total{method="POST",route="/v1/memories",status="201"} 2',
    );
    expect(text).toContain(
      'hindsight_http_requests_total{method="DELETE",route="/v1/memories/{id}",status="200"} 1',
    );
    expect(text).toContain(
      'hindsight_http_requests_total{method="POST",route="/v1/recall",status="400"} 1',
    );
    expect(text).toContain(
      'hindsight_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).toMatch(
      /^hindsight_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/v1\/memories",status="201"\} 2$/m,
    );
    expect(text).toMatch(/^hindsight_http_request_duration_seconds_sum\{/m);
    expect(text).toContain('hindsight_memories{layer="episodic",status="active"} 1');
    expect(text).toContain('hindsight_memories{layer="episodic",status="archived"} 1');
    expect(text).toContain('hindsight_memories{layer="semantic",status="active"} 1');
    expect(text).toContain('hindsight_memories{layer="semantic",status="archived"} 0');
    expect(text).toMatch(/^hindsight_store_up 1$/m);
  });

  it("keeps its metrics out of prom-client's global registry", async () => {
    expect(await globalRegistry.metrics()).not.toContain("hindsight_");
  });
});

describe("OpenAPI document", () => {
  let base: string;
  let doc: Doc;
  let routes: { method: string; path: string }[];

  beforeAll(async () => {
    const memory = await openMemory();
    const app = createHttpApp(memory, { logger: stderrLogger("silent") });
    routes = app.routes;
    const server = await listen(app, { host: "127.0.0.1", port: 0 });
    servers.push(server);
    base = server.url;
    doc = (await call(base, "GET", "/openapi.json")).body as Doc;
  });

  it("is OpenAPI 3.1 shaped, with unique operation ids and resolvable references", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(
      expect.objectContaining({ title: "hindsight", version: expect.any(String) }),
    );
    expect(doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\//);
      for (const [method, operation] of Object.entries(item)) {
        expect(["get", "post", "put", "patch", "delete"]).toContain(method);
        expect(operation.operationId).toMatch(/^[A-Za-z]+$/);
        ids.push(operation.operationId);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        for (const status of Object.keys(operation.responses)) expect(status).toMatch(/^\d{3}$/);
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          const parameters = operation.parameters as { name: string; in: string }[];
          expect(parameters).toContainEqual(
            expect.objectContaining({ name: name.slice(1, -1), in: "path", required: true }),
          );
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "storeEpisodic",
        "storeSemantic",
        "recall",
        "summarize",
        "forget",
        "stats",
        "health",
        "metrics",
        "openapi",
        "mcp",
        "workingAppend",
        "workingGet",
        "workingCompress",
        "workingEnd",
      ]),
    );

    // Every $ref points into this document, at something that exists.
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[\w.-]+$/);
      expect(doc.components.schemas[ref!.split("/").pop()!], ref).toBeDefined();
    }
    // And every schema compiles as JSON Schema 2020-12.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc as object, "openapi");
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` })).not.toThrow();
    }
  });

  it("declares request bodies from the input schemas and errors as ErrorOutput", () => {
    const store = doc.paths["/v1/memories"]?.post as Operation & {
      requestBody: { content: Record<string, { schema: unknown }> };
    };
    expect(store.requestBody.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/StoreEpisodicInput",
    });
    const input = doc.components.schemas.StoreEpisodicInput as {
      required: string[];
      additionalProperties: boolean;
    };
    // summary or interaction: exactly one, checked by the schema's refinement.
    expect(input.required.sort()).toEqual(["outcome", "task_type"]);
    expect(input.additionalProperties).toBe(false);
    for (const status of ["400", "413", "500"]) {
      expect(store.responses[status]?.content?.["application/json"]?.schema).toEqual({
        $ref: "#/components/schemas/ErrorOutput",
      });
    }
    // Without an API key nothing is said about one.
    expect(doc.components.securitySchemes).toBeUndefined();
    expect(store.responses["401"]).toBeUndefined();
  });

  it("lists every route of the app, and nothing else", () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    const served = new Set<string>();
    for (const route of routes) {
      if (route.path.includes("*")) continue; // middleware of every route
      if (route.path.startsWith("/ui")) continue; // the inspector's page: files, not the API
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      // MCP takes every method; POST is the one that does something.
      const method = route.method === "ALL" ? "post" : route.method.toLowerCase();
      served.add(`${method} ${path}`);
    }
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("matched every response this file received, and each operation succeeded at least once", () => {
    // Runs last: `call` validated each response against its server's document as it came.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const success = Object.keys(operation.responses).filter((status) => status < "300");
        expect(
          success.some((status) => validated.has(`${method} ${path} ${status}`)),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
    for (const status of ["400", "401", "403", "404", "413", "500", "503"]) {
      expect(
        [...validated].some((entry) => entry.endsWith(` ${status}`)),
        status,
      ).toBe(true);
    }
  });
});
