import { describe, expect, it } from "vitest";
import type { CliBench, CliCase } from "./cli.js";
import { type TargetInputs, targets } from "./targets.js";

const engineRow = (backend: string, n: number, ratio: number): TargetInputs => ({
  backend,
  n,
  recall_over_floor_p50: ratio,
  embedder: "hash-v1",
});

const endToEndRow = (backend: string, serveP50: number, ingest: number): TargetInputs => ({
  backend,
  n: 10_000,
  recall_over_floor_p50: 1.4,
  embedder: "local:multilingual-e5-small-q4",
  floor_with_embed_ms: { p50: 10, p99: 20 },
  serve_recall_ms: { p50: serveP50, p99: 30 },
  ingest: { ratio: ingest, import_ratio: 0.85 },
});

const cliCase = (over_node: number): CliCase => ({
  ms: { p50: over_node * 80, p95: over_node * 90, p99: over_node * 95 },
  over_node,
});

describe("bench targets", () => {
  it("judges the engine at the largest size only, and every backend must hold", () => {
    const [engine] = targets(
      [
        engineRow("pglite", 10_000, 1.2),
        engineRow("pglite", 100_000, 1.4),
        engineRow("postgres", 10_000, 1.1),
        engineRow("postgres", 100_000, 1.6),
      ],
      [],
      undefined,
    );
    expect(engine).toMatchObject({
      value: { pglite: 1.4, postgres: 1.6 },
      bound: "<= 1.5",
      met: false,
    });
    expect(engine!.measure).toContain("100000 memories");
  });

  it("reads serve against its own floor and ingest against the embedder, per backend", () => {
    const found = targets(
      [engineRow("pglite", 100_000, 1.3)],
      [endToEndRow("pglite", 18, 0.72), endToEndRow("postgres", 25, 0.81)],
      undefined,
    );
    const by = (start: string) => found.find((target) => target.measure.startsWith(start));
    expect(by("serve recall p50")).toMatchObject({
      value: { pglite: 1.8, postgres: 2.5 },
      met: false,
    });
    expect(by("serve recall p99")).toMatchObject({ value: { pglite: 1.5 }, met: true });
    expect(by("storeEpisodicBatch")).toMatchObject({
      value: { pglite: 0.72, postgres: 0.81 },
      bound: ">= 0.8",
      met: false,
    });
    expect(by("import")).toMatchObject({ met: true });
  });

  it("leaves out what the run did not measure, and judges the command line when it did", () => {
    expect(targets([engineRow("pglite", 1000, 1.2)], [], undefined)).toHaveLength(1);
    const cli = {
      cold_store: cliCase(8.2),
      cold_recall: cliCase(12.5),
      refused: cliCase(2),
      embedder: "default model",
    } as CliBench;
    const found = targets([engineRow("pglite", 1000, 1.2)], [], cli);
    expect(found.map(({ measure, met }) => [measure.split(" p50")[0], met])).toEqual([
      [expect.stringContaining("engine recall"), true],
      ["cold CLI store", true],
      ["cold CLI recall", false],
      ["a refused input", true],
    ]);
  });
});
