import { describe, expect, it } from "vitest";
import { Turns } from "./concurrency.js";

describe("Turns", () => {
  it("lets each turn go once every earlier one is done, whatever order they end in", async () => {
    const turns = new Turns();
    const first = turns.take();
    const second = turns.take();
    const third = turns.take();
    const ready: string[] = [];
    void second.ready.then(() => ready.push("second"));
    void third.ready.then(() => ready.push("third"));
    await first.ready;
    third.done(); // ends early: the second still holds the line
    await new Promise((resolve) => setImmediate(resolve));
    expect(ready).toEqual([]);
    first.done();
    await second.ready;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ready).toEqual(["second"]);
    second.done();
    await third.ready;
    expect(ready).toEqual(["second", "third"]);
  });
});
