import { describe, expect, it } from "vitest";
import { hnswBuildBytes } from "./vector-index.js";

describe("hnswBuildBytes", () => {
  it("holds the graphs pgvector reported full: 28 366 rows in 64 MB on PostgreSQL, 7 977 in 16 MB on PGlite", () => {
    // "hnsw graph no longer fits into maintenance_work_mem after N tuples", 384 dimensions.
    expect(hnswBuildBytes(28_366, 384)).toBeGreaterThan(64 * 2 ** 20);
    expect(hnswBuildBytes(7977, 384)).toBeGreaterThan(16 * 2 ** 20);
    // With a tenth to spare, not several times the graph.
    expect(hnswBuildBytes(28_366, 384)).toBeLessThan(1.25 * 64 * 2 ** 20);
  });

  it("grows with the vectors' size and stops at 512 MB", () => {
    expect(hnswBuildBytes(10_000, 1536)).toBeGreaterThan(3 * hnswBuildBytes(10_000, 384));
    expect(hnswBuildBytes(10_000_000, 384)).toBe(512 * 2 ** 20);
    expect(hnswBuildBytes(0, 384)).toBe(0);
  });
});
