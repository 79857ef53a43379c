/**
 * `hindsight export` and `hindsight import` as a user runs them: a file out and back in, the
 * MCP memory server's and mem0's files read, and a bad file refused by line and field with
 * nothing written.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runCli } from "./support/cli.js";

describe("hindsight export / import", () => {
  let dir: string;
  const env = (name: string) => ({
    HINDSIGHT_DATA_DIR: join(dir, name),
    HINDSIGHT_LOG_LEVEL: "warn",
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hindsight-transfer-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads an MCP memory.json and a mem0 export, then moves the store to another directory", async () => {
    const graph = join(dir, "memory.json");
    await writeFile(
      graph,
      [
        '{"type":"entity","name":"Alice","entityType":"person","observations":["Prefers tea"]}',
        '{"type":"relation","from":"Alice","to":"Billing","relationType":"maintains"}',
      ].join("\n"),
    );
    const mem0 = join(dir, "mem0.json");
    await writeFile(
      mem0,
      JSON.stringify({ results: [{ id: "m-1", memory: "Likes hiking", user_id: "alice" }] }),
    );
    expect(
      json(await runCli(["import", graph, "--from", "mcp-memory", "--json"], env("a"))),
    ).toMatchObject({ imported: 2, skipped: 0 });
    expect(
      json(await runCli(["import", mem0, "--from", "mem0", "--json"], env("a"))),
    ).toMatchObject({ imported: 1 });

    const file = join(dir, "export.jsonl");
    expect(json(await runCli(["export", "--out", file, "--json"], env("a")))).toEqual({
      memories: 3,
      file,
    });
    expect(json(await runCli(["import", file, "--json"], env("b")))).toMatchObject({
      imported: 3,
      embedded: 3,
    });
    const listed = json<{ memories: { key_text: string }[] }>(
      await runCli(["list", "--json"], env("b")),
    );
    expect(listed.memories.map((m) => m.key_text).sort()).toEqual([
      "Alice (person)",
      "Alice maintains Billing",
      "Likes hiking",
    ]);
  });

  it("refuses a bad file naming its line and field, writing nothing", async () => {
    const file = join(dir, "bad.jsonl");
    const header = {
      kind: "header",
      format: "hindsight-export",
      version: 1,
      exported_at: "2025-01-01T00:00:00Z",
      embedder: { id: "hash-v1", dimensions: 384 },
      with_vectors: false,
    };
    const good = {
      kind: "trust",
      source: "runbook",
      trust: "high",
      note: null,
      updated_at: "2025-01-01T00:00:00Z",
    };
    await writeFile(
      file,
      [header, good, { ...good, source: "wiki", trust: "sky-high" }]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const result = await runCli(["import", file, "--json"], env("c"));
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr.trim().split("\n").at(-1)!);
    expect(error).toMatchObject({ code: "INVALID_INPUT", field: "trust" });
    expect(error.message).toMatch(/^line 3: trust: /);
    expect(json(await runCli(["share", "sources", "--json"], env("c")))).toMatchObject({
      sources: [],
    });
  });
});
