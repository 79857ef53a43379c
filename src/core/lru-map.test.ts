import { describe, expect, it } from "vitest";
import { LruMap } from "./lru-map.js";

describe("LruMap", () => {
  it("pushes out the least recently used entry, a read counting as a use", () => {
    const map = new LruMap<string, number>(2);
    expect(map.set("a", 1)).toEqual([]);
    expect(map.set("b", 2)).toEqual([]);
    expect(map.get("a")).toBe(1);
    expect(map.set("c", 3)).toEqual([["b", 2]]);
    expect(map.get("b")).toBeUndefined();
    expect([map.get("a"), map.get("c"), map.size]).toEqual([1, 3, 2]);
  });

  it("replaces a key's value without pushing anything out, and makes it the newest", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.set("a", 10)).toEqual([]);
    expect(map.set("c", 3)).toEqual([["b", 2]]);
    expect(map.get("a")).toBe(10);
  });

  it("keeps nothing at capacity 0, handing the entry back", () => {
    const map = new LruMap<string, number>(0);
    expect(map.set("a", 1)).toEqual([["a", 1]]);
    expect([map.get("a"), map.size]).toEqual([undefined, 0]);
  });

  it("forgets a deleted key", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    expect(map.delete("a")).toBe(true);
    expect(map.delete("a")).toBe(false);
    expect(map.size).toBe(0);
  });
});
