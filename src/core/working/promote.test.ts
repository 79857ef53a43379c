import { describe, expect, it } from "vitest";
import { LIMITS } from "../schemas.js";
import { deterministicEpisodeSummary, sessionMetadata } from "./promote.js";
import type { ItemKind, ItemRole, WorkingItem, WorkingSession } from "./types.js";

const item = (seq: number, kind: ItemKind, role: ItemRole, content: string): WorkingItem => ({
  seq,
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
  kind,
  role,
  content,
  created_at: new Date("2026-01-01T00:00:00Z"),
});

const session = (items: WorkingItem[]): WorkingSession => ({
  session_id: "s",
  items,
  summary: null,
  revision: 0,
  budget: null,
});

describe("the ended session's episodic summary by rules", () => {
  it("names the goal whole, then the last action and the outcome, within 80 characters", () => {
    const summary = deterministicEpisodeSummary(
      session([
        item(1, "goal", "user", "Deploy billing v2 without downtime"),
        item(2, "tool_call", "assistant", "kubectl rollout status deploy/billing"),
        item(3, "result", "tool", "Rollout stuck: 1 of 3 pods CrashLoopBackOff. Logs show OOM."),
      ]),
      "failure",
    );
    expect(summary).toMatch(/^Deploy billing v2 without downtime → Rollout stuck: .* → failure$/u);
    expect([...summary].length).toBeLessThanOrEqual(80);
  });

  it("stays within 80 characters for long Chinese text", () => {
    const summary = deterministicEpisodeSummary(
      session([
        item(
          1,
          "goal",
          "user",
          "把订单表迁移到新结构，并且在迁移过程中保证线上服务不中断，迁移完成后核对所有分片的行数和校验和",
        ),
        item(
          2,
          "result",
          "tool",
          "第三十批复制完成，所有分片的行数一致，校验和一致，没有发现任何异常数据，可以切换到新表",
        ),
      ]),
      "success",
    );
    expect([...summary].length).toBeLessThanOrEqual(80);
    expect(summary.startsWith("把订单表迁移到新结构")).toBe(true);
    expect(summary.endsWith("→ success")).toBe(true);
  });
});

describe("the session in the episodic memory's metadata", () => {
  it("fits the metadata limit, shortening texts and then leaving out the oldest items", () => {
    const items = Array.from({ length: 200 }, (_, i) =>
      item(i + 1, "result", "tool", `result ${i} `.repeat(200)),
    );
    const metadata = sessionMetadata(session(items));
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBeLessThanOrEqual(LIMITS.metadataBytes);
    const transcript = metadata.transcript as { seq: number }[];
    expect(transcript.at(-1)!.seq).toBe(200);
    expect(metadata.transcript_omitted).toBe(200 - transcript.length);
  });

  it("keeps a small session whole", () => {
    const metadata = sessionMetadata(
      session([item(1, "goal", "user", "g"), item(2, "note", "assistant", "n")]),
    );
    expect(metadata).toMatchObject({
      working_session: "s",
      working_summary: null,
      transcript: [
        { seq: 1, kind: "goal", role: "user", content: "g" },
        { seq: 2, kind: "note", role: "assistant", content: "n" },
      ],
    });
    expect(metadata).not.toHaveProperty("transcript_omitted");
  });
});
