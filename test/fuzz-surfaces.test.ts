/**
 * Property-based fuzzing of every REST route and every MCP tool, generated from their own
 * schemas (so routes and tools added later are covered too). Whatever arrives: no 5xx, no
 * stack traces or internals in a response, errors name a field, and a rejected request
 * writes nothing. The seed is fixed so CI is repeatable; FUZZ_SEED explores others.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { inputProblem } from "../src/core/input-shape.js";
import { createHttpApp, type HttpApp } from "../src/http/app.js";
import { ROUTES } from "../src/http/routes/index.js";
import { createHindsight, type Hindsight } from "../src/index.js";
import { ERROR_META_KEY } from "../src/mcp/errors.js";
import { createMcpServer } from "../src/mcp/server.js";
import { MEMORY_TOOLS } from "../src/mcp/tool.js";
import { brokenValue, validValue } from "./support/schema-arbitrary.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const settings = { seed: SEED, numRuns: RUNS, endOnFailure: true };

/** Signs of internals leaking: stack frames, source paths, SQL. */
const INTERNALS = /\n\s+at |node_modules|\.ts:\d|\.js:\d|SELECT |INSERT INTO/;

let memory: Hindsight;
let app: HttpApp;
let cases = 0;

beforeAll(async () => {
  memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
  app = createHttpApp(memory, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
  // Something to recall, forget and summarise.
  await memory.storeEpisodic({
    task_type: "deploy",
    summary: "deployed the api",
    outcome: "success",
  });
}, 60_000);

afterAll(async () => {
  console.error(`fuzz: ${cases} cases run (seed ${SEED})`);
  await memory?.close();
});

async function totalMemories(): Promise<number> {
  const stats = await memory.stats();
  return stats.episodic.total + stats.semantic.total;
}

/** The field validate() reports for a value the schema rejects, or undefined if it passes. */
function rejectedField(schema: z.ZodType, value: unknown): string | undefined {
  const problem = inputProblem(value);
  if (problem) return problem.path || "input";
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String).join(".");
  if (path) return path;
  return issue.code === "unrecognized_keys" ? issue.keys[0] : "input";
}

/** The route's path with a valid value in each parameter, so the body is what is fuzzed. */
function validPath(route: (typeof ROUTES)[number]): string {
  return route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const schema = route.request?.path?.[name];
    const [value] = schema ? fc.sample(validValue(schema), { numRuns: 1, seed: SEED }) : ["x"];
    return encodeURIComponent(String(value));
  });
}

const bodyRoutes = ROUTES.filter(
  (route) => route.request?.body && (route.method === "post" || route.method === "patch"),
);
const pathRoutes = ROUTES.filter((route) => route.request?.path);

async function send(method: string, path: string, body?: string) {
  const response = await app.request(path, {
    method: method.toUpperCase(),
    headers: { "content-type": "application/json", host: "localhost" },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  cases++;
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe("REST routes under fuzzing", () => {
  it("lists routes to fuzz", () => {
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(3);
  });

  for (const route of bodyRoutes) {
    const schema = route.request!.body!;
    const path = validPath(route);
    describe(`${route.method.toUpperCase()} ${route.path}`, () => {
      it("answers schema-shaped bodies without a server error", async () => {
        await fc.assert(
          fc.asyncProperty(validValue(schema), async (body) => {
            const response = await send(route.method, path, JSON.stringify(body));
            expect(response.status, response.text).toBeLessThan(500);
            expect(response.text).not.toMatch(INTERNALS);
            if (response.status >= 400) expect(response.json().code).toBeTypeOf("string");
          }),
          settings,
        );
      }, 120_000);

      it("rejects a broken field by name and writes nothing", async () => {
        await fc.assert(
          fc.asyncProperty(brokenValue(schema), async ({ value }) => {
            const before = await totalMemories();
            const response = await send(route.method, path, JSON.stringify(value));
            expect(response.status, response.text).toBeLessThan(500);
            expect(response.text).not.toMatch(INTERNALS);
            const field = rejectedField(schema, value);
            if (field === undefined) return;
            expect(response.status, response.text).toBe(400);
            const error = response.json();
            expect(error.code).toBe("INVALID_INPUT");
            expect(error.field).toBe(field);
            expect(String(error.message).startsWith(`${field}:`)).toBe(true);
            expect(await totalMemories()).toBe(before);
          }),
          settings,
        );
      }, 120_000);

      it("rejects bodies that are not JSON objects", async () => {
        const garbage = fc.oneof(
          fc.string({ maxLength: 50 }),
          fc
            .jsonValue({ maxDepth: 2 })
            .filter((value) => typeof value !== "object" || value === null || Array.isArray(value))
            .map((value) => JSON.stringify(value)),
        );
        await fc.assert(
          fc.asyncProperty(garbage, async (body) => {
            const before = await totalMemories();
            const response = await send(route.method, path, body);
            expect(response.status, response.text).toBe(400);
            expect(response.text).not.toMatch(INTERNALS);
            expect(response.json().field).toBeTypeOf("string");
            expect(await totalMemories()).toBe(before);
          }),
          settings,
        );
      }, 120_000);
    });
  }

  for (const route of pathRoutes) {
    it(`${route.method.toUpperCase()} ${route.path} takes any path segment without a server error`, async () => {
      const segment = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 60 }));
      await fc.assert(
        fc.asyncProperty(segment, async (raw) => {
          const path = route.path.replace(/\{\w+\}/g, encodeURIComponent(raw));
          const response = await send(route.method === "all" ? "get" : route.method, path);
          expect(response.status, response.text).toBeLessThan(500);
          expect(response.text).not.toMatch(INTERNALS);
        }),
        settings,
      );
    }, 120_000);
  }
});

describe("MCP tools under fuzzing", () => {
  let client: Client;
  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(memory).connect(serverSide);
    client = new Client({ name: "fuzz", version: "0" });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    cases++;
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  };

  for (const tool of MEMORY_TOOLS) {
    it(`${tool.name}: schema-shaped arguments never fail as internal errors`, async () => {
      await fc.assert(
        fc.asyncProperty(validValue(tool.input), async (args) => {
          const result = await call(tool.name, args);
          const text = JSON.stringify(result);
          expect(text).not.toMatch(INTERNALS);
          if (result.isError) {
            const error = result._meta?.[ERROR_META_KEY] as { code: string } | undefined;
            expect(["INVALID_INPUT", "NOT_FOUND"]).toContain(error?.code);
          }
        }),
        settings,
      );
    }, 120_000);

    it(`${tool.name}: a broken argument is an error result naming it, and writes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(brokenValue(tool.input), async ({ value }) => {
          const before = await totalMemories();
          const result = await call(tool.name, value);
          expect(JSON.stringify(result)).not.toMatch(INTERNALS);
          const field = rejectedField(tool.input, value);
          if (field === undefined) return;
          expect(result.isError).toBe(true);
          const error = result._meta?.[ERROR_META_KEY] as { code: string; field?: string };
          expect(error.code).toBe("INVALID_INPUT");
          expect(error.field).toBe(field);
          expect(await totalMemories()).toBe(before);
        }),
        settings,
      );
    }, 120_000);
  }
});

/**
 * Inputs a red team sent, each refused as INVALID_INPUT naming its field on REST and MCP alike,
 * never a 5xx, never silently changed, never written.
 */
describe("adversarial inputs", () => {
  // As JSON text: a 5,000-level object is past what JSON.stringify can write back.
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
  const episode = (fields: string) =>
    `{"task_type": "t", "summary": "s", "outcome": "success", ${fields}}`;
  const cases: [string, string, string][] = [
    ["5,000 levels of nested metadata", episode(`"metadata": ${deep(5000)}`), "metadata"],
    [
      "an unpaired surrogate in a summary",
      '{"task_type": "t", "summary": "bad \\ud800 half", "outcome": "success"}',
      "summary",
    ],
    [
      "an unpaired surrogate in a metadata key",
      episode('"metadata": {"k\\udfff": 1}'),
      "metadata.k\udfff",
    ],
    [
      "a __proto__ key in metadata",
      episode('"metadata": {"__proto__": {"polluted": true}}'),
      "metadata.__proto__",
    ],
    ["year 0000", episode('"occurred_at": "0000-01-01"'), "occurred_at"],
    [
      "year 10000 reached through an offset",
      episode('"occurred_at": "9999-12-31T23:00:00-05:00"'),
      "occurred_at",
    ],
    [
      "31 June with an offset",
      episode('"occurred_at": "2024-06-31T10:00:00+02:00"'),
      "occurred_at",
    ],
    [
      "30 February with an offset",
      episode('"occurred_at": "2024-02-30T00:00:00-05:00"'),
      "occurred_at",
    ],
    ["hour 24", episode('"occurred_at": "2024-05-01T24:00:00Z"'), "occurred_at"],
  ];

  it.each(cases)("REST refuses %s", async (_name, body, field) => {
    const before = await totalMemories();
    const response = await send("post", "/v1/memories", body);
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ code: "INVALID_INPUT", field });
    expect(await totalMemories()).toBe(before);
  });

  it.each(cases)("MCP refuses %s", async (_name, body, field) => {
    const args = JSON.parse(body) as Record<string, unknown>;
    const client = new Client({ name: "adversary", version: "0.0.0" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await createMcpServer(memory).connect(serverTransport);
    await client.connect(clientTransport);
    try {
      const before = await totalMemories();
      const result = (await client.callTool({
        name: "memory_store",
        arguments: args,
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ code: "INVALID_INPUT", field });
      expect(await totalMemories()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("keeps dates at the edges of the calendar, and decays them without a server error", async () => {
    for (const occurred_at of ["0001-01-01", "9999-12-31T23:59:59Z"]) {
      const response = await send(
        "post",
        "/v1/memories",
        episode(`"occurred_at": "${occurred_at}"`),
      );
      expect(response.status, response.text).toBe(201);
    }
    const far = await send("post", "/v1/maintain", JSON.stringify({ now: "9999-12-31T23:59:59Z" }));
    expect(far.status, far.text).toBe(200);
  });
});
