/**
 * Issue #18's targets, read off one bench run: each figure next to its bound and whether it
 * holds, so a run says by itself what is met. Ratios, not times: machines differ, a run's
 * ratios compare like with like.
 */
import type { CliBench } from "./cli.js";

/** The bench's per-backend, per-size figures that the targets read. */
export interface TargetInputs {
  backend: string;
  n: number;
  recall_over_floor_p50: number;
  embedder: string;
  floor_with_embed_ms?: { p50: number; p99: number };
  serve_recall_ms?: { p50: number; p99: number };
  ingest?: { ratio: number; import_ratio: number };
}

export interface Target {
  /** What is measured, in words. */
  measure: string;
  /** The run's figure, per backend where it has one. */
  value: number | Record<string, number>;
  /** `<= 1.5` or `>= 0.8`. */
  bound: string;
  met: boolean;
}

const round = (value: number) => Math.round(value * 100) / 100;

function perBackend(
  measure: string,
  bound: { at_most?: number; at_least?: number },
  values: Record<string, number>,
): Target | undefined {
  const figures = Object.values(values);
  if (figures.length === 0) return undefined;
  const met = figures.every((value) =>
    bound.at_most !== undefined ? value <= bound.at_most : value >= bound.at_least!,
  );
  return {
    measure,
    value: values,
    bound: bound.at_most !== undefined ? `<= ${bound.at_most}` : `>= ${bound.at_least}`,
    met,
  };
}

/**
 * The targets: engine recall at the largest size the engine part ran, end to end through
 * `serve` and ingest wherever the default model ran, and the command line when it was measured.
 */
export function targets(
  engine: readonly TargetInputs[],
  endToEnd: readonly TargetInputs[],
  cli: CliBench | undefined,
): Target[] {
  const largest = Math.max(...engine.map((result) => result.n));
  const at = (results: readonly TargetInputs[], read: (r: TargetInputs) => number | undefined) =>
    Object.fromEntries(
      results.flatMap((result) => {
        const value = read(result);
        return value === undefined ? [] : [[result.backend, round(value)]];
      }),
    );
  const serve = (quantile: "p50" | "p99") => (result: TargetInputs) =>
    result.serve_recall_ms && result.floor_with_embed_ms
      ? result.serve_recall_ms[quantile] / result.floor_with_embed_ms[quantile]
      : undefined;
  const sizeOf = (results: readonly TargetInputs[]) =>
    results.length > 0 ? ` (${results[0]!.n} memories, ${results[0]!.embedder})` : "";
  const found: (Target | undefined)[] = [
    perBackend(
      `engine recall p50 ÷ raw pgvector top-k, ${largest} memories (${engine[0]?.embedder})`,
      { at_most: 1.5 },
      at(
        engine.filter((result) => result.n === largest),
        (result) => result.recall_over_floor_p50,
      ),
    ),
    perBackend(
      `serve recall p50 ÷ its floor (one query embedding + raw top-k)${sizeOf(endToEnd)}`,
      { at_most: 2 },
      at(endToEnd, serve("p50")),
    ),
    perBackend(
      `serve recall p99 ÷ its floor${sizeOf(endToEnd)}`,
      { at_most: 4 },
      at(endToEnd, serve("p99")),
    ),
    perBackend(
      `storeEpisodicBatch ÷ the embedder's own batch throughput${sizeOf(endToEnd)}`,
      { at_least: 0.8 },
      at(endToEnd, (result) => result.ingest?.ratio),
    ),
    perBackend(
      `import ÷ the embedder's own batch throughput${sizeOf(endToEnd)}`,
      { at_least: 0.8 },
      at(endToEnd, (result) => result.ingest?.import_ratio),
    ),
  ];
  if (cli) {
    const command = (measure: string, over: number, bound: number): Target => ({
      measure: `${measure} p50 ÷ a bare node -e (${cli.embedder})`,
      value: round(over),
      bound: `<= ${bound}`,
      met: over <= bound,
    });
    found.push(
      command("cold CLI store", cli.cold_store.over_node, 12),
      command("cold CLI recall", cli.cold_recall.over_node, 12),
      command("a refused input", cli.refused.over_node, 3),
    );
  }
  return found.filter((target): target is Target => target !== undefined);
}
