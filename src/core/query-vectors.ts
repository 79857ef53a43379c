import { LruMap } from "./lru-map.js";

/**
 * The vectors of recent queries, by their text. Agents ask the same thing again and again —
 * a recall of the task at hand on every turn, a retried request, a summary of what a recall
 * just found — and embedding a query with the default model takes 7–20 ms on 2 cores, more
 * than the rest of a recall (docs/benchmarks.md). A query's vector depends on its text alone,
 * so a vector kept is the vector the model would return.
 *
 * Only queries are kept: a memory's text is embedded once, when it is stored.
 */
export class QueryVectors {
  private readonly vectors: LruMap<string, Float32Array>;
  /**
   * Queries being embedded now: a recall asking one of them waits for that embedding instead of
   * running the model again (agents sharing a server often ask the same thing at once).
   */
  private readonly embedding = new Map<string, Promise<Float32Array>>();

  constructor(capacity: number) {
    this.vectors = new LruMap(capacity);
  }

  /**
   * Each text's vector, in order: kept ones from memory, ones being embedded from that embedding,
   * the others from `embed` in one call (which may throw: nothing is kept then, and whoever
   * waited for those texts gets the error too). Callers get copies, so no caller can change a
   * vector another one will be given.
   */
  async embed(
    texts: readonly string[],
    embed: (missing: string[]) => Promise<Float32Array[]>,
  ): Promise<Float32Array[]> {
    const known = new Map<string, Float32Array | Promise<Float32Array>>();
    for (const text of texts) {
      const vector = this.vectors.get(text) ?? this.embedding.get(text);
      if (vector) known.set(text, vector);
    }
    const missing = [...new Set(texts.filter((text) => !known.has(text)))];
    if (missing.length > 0) {
      const batch = embed(missing);
      missing.forEach((text, index) => {
        const vector = batch.then((vectors) => vectors[index]!);
        // A waiter may be gone by the time the model fails: the rejection is handled here too.
        vector.catch(() => undefined);
        known.set(text, vector);
        this.embedding.set(text, vector);
      });
      try {
        const vectors = await batch;
        missing.forEach((text, index) => {
          this.vectors.set(text, vectors[index]!);
        });
      } finally {
        for (const text of missing) this.embedding.delete(text);
      }
    }
    const vectors = await Promise.all(texts.map((text) => known.get(text)!));
    return vectors.map((vector) => vector.slice());
  }
}
