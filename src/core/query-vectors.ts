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
  /** Least recently used first: a Map iterates in insertion order, and a hit is re-inserted. */
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly capacity: number) {}

  /**
   * Each text's vector, in order: kept ones from memory, the others from `embed` in one call
   * (which may throw: nothing is kept then). Callers get copies, so no caller can change a
   * vector another one will be given.
   */
  async embed(
    texts: readonly string[],
    embed: (missing: string[]) => Promise<Float32Array[]>,
  ): Promise<Float32Array[]> {
    const known = new Map<string, Float32Array>();
    for (const text of texts) {
      const vector = this.take(text);
      if (vector) known.set(text, vector);
    }
    const missing = [...new Set(texts.filter((text) => !known.has(text)))];
    if (missing.length > 0) {
      const embedded = await embed(missing);
      missing.forEach((text, index) => {
        known.set(text, embedded[index]!);
        this.keep(text, embedded[index]!);
      });
    }
    return texts.map((text) => known.get(text)!.slice());
  }

  private take(text: string): Float32Array | undefined {
    const vector = this.vectors.get(text);
    if (vector === undefined) return undefined;
    this.vectors.delete(text);
    this.vectors.set(text, vector);
    return vector;
  }

  private keep(text: string, vector: Float32Array): void {
    if (this.capacity <= 0) return;
    this.vectors.delete(text);
    this.vectors.set(text, vector);
    for (const oldest of this.vectors.keys()) {
      if (this.vectors.size <= this.capacity) break;
      this.vectors.delete(oldest);
    }
  }
}
