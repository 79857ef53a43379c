/**
 * The library as another project uses it: typed operations (a wrong field type does not
 * compile — `npm test` type-checks the tests, so each `@ts-expect-error` below must stay an
 * error), validation once at run time for JavaScript callers, and a barrel that loads no
 * database or model driver until one is used.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createHashEmbedder,
  createHindsight,
  type Hindsight,
  importBatches,
  isHindsightError,
} from "../src/index.js";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src");
const DRIVERS = [
  "pg",
  "@electric-sql/pglite",
  "@electric-sql/pglite-pgvector",
  "ioredis",
  "@huggingface/transformers",
  "onnxruntime-node",
];

/** The bare packages `file` loads when imported, following relative imports (not `import type`). */
async function staticPackages(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = await readFile(file, "utf8");
  const statement = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+"([^"]+)";/gmsu;
  for (const [, specifier] of source.matchAll(statement)) {
    if (specifier!.startsWith(".")) {
      const target = path.resolve(path.dirname(file), specifier!.replace(/\.js$/u, ".ts"));
      for (const name of await staticPackages(target, seen)) packages.add(name);
    } else if (!specifier!.startsWith("node:")) {
      packages.add(
        specifier!.startsWith("@")
          ? specifier!.split("/").slice(0, 2).join("/")
          : specifier!.split("/")[0]!,
      );
    }
  }
  return packages;
}

describe("the library", () => {
  let memory: Hindsight;
  beforeAll(async () => {
    memory = await createHindsight({ dataDir: "memory://" }, { embedder: createHashEmbedder() });
  });
  afterAll(async () => {
    await memory?.close();
  });

  it("takes typed inputs, dates as Date objects included", async () => {
    const { id } = await memory.storeEpisodic({
      task_type: "deploy",
      summary: "Deploy failed: port 8080 already in use",
      outcome: "failure",
      occurred_at: new Date("2026-11-30T10:00:00Z"),
    });
    const { results } = await memory.recall({ query_text: "port 8080", top_k: 3 });
    expect(results[0]).toMatchObject({ id, layer: "episodic" });
    expect(results[0]!.layer === "episodic" && results[0]!.occurred_at).toEqual(
      new Date("2026-11-30T10:00:00Z"),
    );
  });

  it("moves a store to another with importBatches, batch by batch, keeping the ids", async () => {
    await memory.storeEpisodicBatch(
      [
        "Rotated the TLS certificates",
        "Raised the API rate limit",
        "Fixed the flaky login test",
      ].map((summary) => ({ task_type: "ops", summary, outcome: "success" as const })),
    );
    const page = await memory.exportMemories({ limit: 1000 });
    const other = await createHindsight(
      { dataDir: "memory://" },
      { embedder: createHashEmbedder() },
    );
    try {
      const sizes: number[] = [];
      const batches = [0, 2, 4].map((start) => ({
        records: page.records.slice(start, start + 2),
        embedder: page.header.embedder,
      }));
      const total = await importBatches(other, batches, (_, batch) =>
        sizes.push(batch.records.length),
      );
      expect(total.imported).toBe(page.records.length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(page.records.length);
      const moved = await other.list({ limit: 100 });
      expect(moved.memories.map((m) => m.id).sort()).toEqual(
        page.records.map((r) => (r as { id: string }).id).sort(),
      );
    } finally {
      await other.close();
    }
  });

  it("does not compile with a wrong field, and refuses it at run time naming the field", async () => {
    const wrong = async () => {
      // @ts-expect-error: "maybe" is not an outcome
      await memory.storeEpisodic({ task_type: "deploy", summary: "x", outcome: "maybe" });
    };
    await expect(wrong()).rejects.toMatchObject({ code: "INVALID_INPUT", field: "outcome" });
    // @ts-expect-error: query_text is a string
    const numeric = memory.recall({ query_text: 42 });
    await expect(numeric).rejects.toMatchObject({ code: "INVALID_INPUT", field: "query_text" });
    // @ts-expect-error: recall has no field "query"
    const unknownField = memory.recall({ query_text: "x", query: "y" });
    const error = await unknownField.catch((e: unknown) => e);
    expect(isHindsightError(error) && error.code).toBe("INVALID_INPUT");
    // @ts-expect-error: a session id is required
    const noSession = memory.workingGet({});
    await expect(noSession).rejects.toMatchObject({ field: "session_id" });
  });

  it("loads no database, Redis or model driver when imported", async () => {
    const packages = await staticPackages(path.join(SRC, "index.ts"));
    expect([...packages].filter((name) => DRIVERS.includes(name))).toEqual([]);
    expect(packages).toContain("zod");
  });

  it("exports every name once, by name", async () => {
    const source = await readFile(path.join(SRC, "index.ts"), "utf8");
    expect(source).not.toMatch(/export \*|export type \*/u);
    const names = [...source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/gu)].flatMap(([, list]) =>
      list!
        .split(",")
        .map(
          (entry) =>
            entry
              .trim()
              .replace(/^type\s+/u, "")
              .split(/\s+as\s+/u)
              .pop()!,
        )
        .filter(Boolean),
    );
    const declared = [
      ...source.matchAll(/export\s+(?:async\s+)?(?:function|interface|const|class|type)\s+(\w+)/gu),
    ].map(([, name]) => name!);
    const all = [...names, ...declared];
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((name, index) => all.indexOf(name) !== index)).toEqual([]);
  });
});
