/**
 * Rule-based compression end to end, through the working-memory service every surface (CLI,
 * HTTP, MCP) uses, without a language model: the work done survives compression as steps, a
 * failure since resolved is not reported as blocked, and compressing never makes a session
 * larger.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkingAppendInput } from "../src/core/working/schemas.js";
import { createHindsight, type Hindsight } from "../src/index.js";

/** One appended item: kind, role, content. */
type Turn = [NonNullable<WorkingAppendInput["kind"]>, WorkingAppendInput["role"], string];

/** A tool's output: a first line that says what happened, then a log nobody needs later. */
const log = (first: string, lines: number) =>
  [
    first,
    ...Array.from(
      { length: lines },
      (_, i) => `  [${String(i).padStart(3, "0")}] layer sha256:${(i * 7919).toString(16)} ok`,
    ),
  ].join("\n");

describe("working-memory compression by rules", () => {
  let memory: Hindsight;
  beforeAll(async () => {
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
  });
  afterAll(() => memory.close());

  it("keeps every step of a deploy session through compression", async () => {
    const session = "deploy-api";
    const append = async ([kind, role, content]: Turn) =>
      (await memory.workingAppend({ session_id: session, kind, role, content, budget: 600 }))
        .compressed;
    const text = (parts: { goal: string; done: string; blocked: string; next: string }) =>
      [...`${parts.goal}${parts.done}${parts.blocked}${parts.next}`].length;
    const work: Turn[] = [
      ["goal", "user", "Ship api v1.4 to staging"],
      ["instruction", "user", "Build, test, push and deploy api v1.4 to staging."],
      ["tool_call", "assistant", "docker build -t api:1.4 ."],
      ["result", "tool", log("Successfully built image api:1.4 (sha256:9f2c1e).", 30)],
      ["note", "assistant", "OK, now I pushed the image to the registry successfully."],
      ["tool_call", "assistant", "npm test"],
      ["result", "tool", "OK, 212 passed, 0 failed"],
      ["tool_call", "assistant", "kubectl apply -f staging.yaml"],
      ["result", "tool", log("Error: port 8080 already in use on node-2.", 20)],
      ["note", "assistant", "Next: switch the service to port 8081."],
    ];
    const compressed: boolean[] = [];
    for (const turn of work) compressed.push(await append(turn));
    // The build log took the session over its budget.
    expect(compressed).toContain(true);

    const context = await memory.workingGet({ session_id: session });
    expect(context.tokens).toBeLessThanOrEqual(600);
    const summary = context.summary!;
    expect(summary.method).toBe("deterministic");
    expect(summary.goal).toBe("Ship api v1.4 to staging");
    expect(text(summary)).toBeLessThanOrEqual(200);
    // Each step is in the summary as a short clause, or still verbatim among the items.
    const kept = context.items.map((item) => item.content).join("\n");
    const steps: [string, string][] = [
      ["built image api:1.4", "Successfully built image api:1.4"],
      ["pushed image to registry", "I pushed the image to the registry"],
      ["npm test: 212 passed", "212 passed"],
    ];
    for (const [step, original] of steps) {
      expect(
        summary.done.includes(step) || kept.includes(original),
        `"${step}" is lost: ${summary.done}`,
      ).toBe(true);
    }
    expect(summary.done).toContain("built image api:1.4");
    expect(summary.done).not.toMatch(/layer|sha256|…/u);
    // Where it is stuck: in the summary, or still verbatim.
    expect(`${summary.blocked}\n${kept}`).toContain("port 8080");
    expect(summary.next).not.toBe(summary.blocked);

    // The agent retries on another port, succeeds, and compresses before handing over.
    const more: Turn[] = [
      ["tool_call", "assistant", "kubectl apply -f staging.yaml --port 8081"],
      ["result", "tool", log("Deployed api:1.4 to staging on port 8081.", 20)],
      ["instruction", "user", "Check the staging health endpoint."],
      ["tool_call", "assistant", "curl -s https://staging.example.com/health"],
    ];
    for (const turn of more) await append(turn);
    const before = await memory.workingGet({ session_id: session });
    const after = await memory.workingCompress({ session_id: session });
    expect(after.tokens).toBeLessThan(before.tokens);
    const final = after.summary!;
    expect(text(final)).toBeLessThanOrEqual(200);
    const order = [
      "built image api:1.4",
      "pushed image to registry",
      "npm test: 212 passed",
      "Deployed api:1.4 to staging on port 8081",
    ].map((step) => final.done.indexOf(step));
    expect(
      order.every((index) => index >= 0),
      final.done,
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The port conflict was resolved by the deploy on 8081, and the plan carried out.
    expect(final.blocked).toBe("");
    expect(final.next).toBe("");
    // Verbatim: the goal, the latest instruction and the open call; nothing else is lost.
    expect(after.items.map((item) => item.content)).toEqual([
      "Ship api v1.4 to staging",
      "Check the staging health endpoint.",
      "curl -s https://staging.example.com/health",
    ]);
    expect(final.items_summarized + after.items.length).toBe(work.length + more.length);
    expect(after.context).toContain("Done: built image api:1.4; pushed image to registry");
  });

  it("gives a Chinese session whole steps and a blocked distinct from next", async () => {
    const session = "deploy-order";
    const turns: Turn[] = [
      ["goal", "user", "把订单服务部署到预发环境"],
      ["note", "assistant", log("好的，我已经构建镜像 order:2.1。", 15)],
      ["note", "assistant", log("推送到仓库。", 15)],
      ["result", "tool", log("部署失败：端口被占用（8080）。", 15)],
      ["note", "assistant", "部署失败了，下一步：换端口重新部署。"],
    ];
    for (const [kind, role, content] of turns) {
      await memory.workingAppend({ session_id: session, kind, role, content });
    }
    const before = await memory.workingGet({ session_id: session });
    const context = await memory.workingCompress({ session_id: session });
    expect(context.tokens).toBeLessThan(before.tokens);
    expect(context.summary).toMatchObject({
      goal: "把订单服务部署到预发环境",
      done: "构建镜像 order:2.1；推送到仓库",
      blocked: "部署失败：端口被占用（8080）",
      next: "换端口重新部署",
    });
    expect(context.items.map((item) => item.kind)).toEqual(["goal"]);
  });

  it("never makes a tiny session larger, not even when asked to compress it", async () => {
    const session = "tiny";
    await memory.workingAppend({
      session_id: session,
      kind: "goal",
      role: "user",
      content: "Rotate the API keys",
    });
    await memory.workingAppend({
      session_id: session,
      role: "assistant",
      content: "Listed 3 keys to rotate.",
    });
    await memory.workingAppend({
      session_id: session,
      kind: "result",
      role: "tool",
      content: "Key 1 rotated.",
    });
    const before = await memory.workingGet({ session_id: session });
    const compressed = await memory.workingCompress({ session_id: session });
    expect(compressed.tokens).toBeLessThanOrEqual(before.tokens);
    // Not applied: the session is as it was, its three items word for word.
    expect(compressed.summary).toBeNull();
    expect(compressed.items.map((item) => item.content)).toEqual(
      before.items.map((item) => item.content),
    );
    const summarized = await memory.summarize({ session_id: session });
    expect(summarized.session!.tokens).toBeLessThanOrEqual(before.tokens);
    expect((await memory.workingGet({ session_id: session })).context).toBe(before.context);
  });
});
