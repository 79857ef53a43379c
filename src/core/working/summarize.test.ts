import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordTokens } from "../../text/tokenize.js";
import { deterministicParts } from "./summarize.js";
import { charLength } from "./text.js";
import {
  ITEM_KINDS,
  ITEM_ROLES,
  type ItemKind,
  type ItemRole,
  type SummaryParts,
  type WorkingItem,
} from "./types.js";

let seq = 0;
const item = (kind: ItemKind, role: ItemRole, content: string): WorkingItem => ({
  seq: ++seq,
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
  kind,
  role,
  content,
  created_at: new Date("2026-01-01T00:00:00Z"),
});

const total = (parts: SummaryParts) =>
  charLength(parts.goal) +
  charLength(parts.done) +
  charLength(parts.blocked) +
  charLength(parts.next);

/** Every word of `part` is a whole word of one of the items: nothing was cut inside a word. */
function expectWholeWords(part: string, items: readonly WorkingItem[]) {
  const source = new Set(items.flatMap((entry) => wordTokens(entry.content)));
  const words = wordTokens(part.replace(/\+\d+ earlier steps?|此前另有\d+步|…/gu, " "));
  for (const word of words) {
    const whole =
      source.has(word) || [...source].some((s) => /\p{Script=Han}/u.test(s) && s.includes(word));
    expect(whole, `"${word}" in "${part}" is not a whole word of the session`).toBe(true);
  }
}

describe("the rules' summary", () => {
  it("keeps every build, push and deploy step as a whole short clause", () => {
    seq = 0;
    const goal = item("goal", "user", "Ship api v1.4 to staging");
    const compress = [
      item("tool_call", "assistant", "docker build -t api:1.4 ."),
      item("result", "tool", "Successfully built image api:1.4 (sha256:9f2c1e), 14 layers."),
      item("note", "assistant", "OK, now I pushed the image to the registry successfully."),
      item(
        "note",
        "assistant",
        "I deployed it to staging and waited for the new pods to become ready and stop the old containers.",
      ),
    ];
    const parts = deterministicParts(null, compress, [goal]);
    expect(parts.goal).toBe("Ship api v1.4 to staging");
    const steps = parts.done.split("; ");
    expect(steps).toHaveLength(3);
    expect(steps[0]).toMatch(/^built image api:1\.4\b/u);
    expect(steps[1]).toBe("pushed image to registry");
    expect(steps[2]).toBe("deployed to staging");
    expect(parts.done).not.toMatch(/\b(?:OK|now|I|successfully)\b|…/u);
    expectWholeWords(parts.done, compress);
    expect(parts.blocked).toBe("");
  });

  it("joins a result that only confirms its call to the call", () => {
    seq = 0;
    const compress = [
      item("tool_call", "assistant", "npm test"),
      item("result", "tool", "OK, 212 passed, 0 failed"),
    ];
    const parts = deterministicParts(null, compress, [item("goal", "user", "Release 2.0")]);
    expect(parts.done).toBe("npm test: 212 passed");
    // "0 failed" is no failure.
    expect(parts.blocked).toBe("");
  });

  it("gives a Chinese session whole steps and a distinct blocked and next", () => {
    seq = 0;
    const goal = item("goal", "user", "把订单服务部署到预发环境");
    const compress = [
      item("note", "assistant", "好的，我已经构建镜像 order:2.1。"),
      item("note", "assistant", "推送到仓库。"),
      item("result", "tool", "部署失败：端口被占用（8080）。"),
      item("note", "assistant", "部署失败了，下一步：换端口重新部署。"),
    ];
    const parts = deterministicParts(null, compress, [goal]);
    expect(parts.goal).toBe("把订单服务部署到预发环境");
    expect(parts.done).toBe("构建镜像 order:2.1；推送到仓库");
    expect(parts.blocked).toBe("部署失败：端口被占用（8080）");
    expect(parts.next).toBe("换端口重新部署");
    expect(parts.next).not.toBe(parts.blocked);
    expectWholeWords(parts.done, compress);
  });

  it("never gives the same note as blocked and next", () => {
    seq = 0;
    const compress = [item("note", "assistant", "部署失败：端口被占用，下一步换端口重新部署")];
    const parts = deterministicParts(null, compress, [item("goal", "user", "部署订单服务")]);
    expect(parts.blocked).toBe("部署失败：端口被占用");
    expect(parts.next).toBe("换端口重新部署");
    // A previous summary that already had both the same (written by the old rules).
    const same = "部署失败了，下一步：换端口重新部署";
    const again = deterministicParts(
      { goal: "部署订单服务", done: "构建镜像", blocked: same, next: same },
      [item("result", "tool", "镜像已推送")],
      [],
    );
    expect(again.blocked).toBe(same);
    expect(again.next).toBe("");
  });

  it("does not keep a failure a later success resolved as blocked, nor a plan carried out as next", () => {
    seq = 0;
    const compress = [
      item("result", "tool", "Deploy failed: port 8080 already in use."),
      item("note", "assistant", "Next: switch the service to port 8081."),
      item("result", "tool", "Deployed billing to staging on port 8081."),
    ];
    const parts = deterministicParts(null, compress, [item("goal", "user", "Deploy billing")]);
    expect(parts.blocked).toBe("");
    expect(parts.next).toBe("");
    expect(parts.done).toBe("Deployed billing to staging on port 8081");

    // The same in Chinese, with the success among the items kept verbatim.
    seq = 0;
    const chinese = deterministicParts(
      null,
      [item("result", "tool", "部署失败：端口被占用")],
      [item("goal", "user", "部署订单服务"), item("result", "tool", "已在8081端口部署成功")],
    );
    expect(chinese.blocked).toBe("");
    // A later success of something else does not resolve it.
    seq = 0;
    const other = deterministicParts(
      null,
      [
        item("result", "tool", "Error: batch 2 failed with a lock timeout."),
        item("result", "tool", "Batch 3 copied."),
      ],
      [item("goal", "user", "Migrate orders")],
    );
    expect(other.blocked).toBe("batch 2 failed with lock timeout");
    expect(other.done).toBe("Batch 3 copied");
  });

  it("names the failed call in blocked, and clears it once the call, run again, succeeds", () => {
    seq = 0;
    const goal = item("goal", "user", "Ship api v1.4 to staging");
    const first = deterministicParts(
      null,
      [
        item("tool_call", "assistant", "kubectl apply -f staging.yaml"),
        item(
          "result",
          "tool",
          "Error: port 8080 already in use on node-2.\n  at deploy (k8s.go:12)",
        ),
      ],
      [goal],
    );
    expect(first.blocked).toBe("kubectl apply -f…: port 8080 in use on node-2");
    // The next compression folds the retry in: the summary's failure is resolved.
    const second = deterministicParts(
      first,
      [
        item("tool_call", "assistant", "kubectl apply -f staging.yaml --port 8081"),
        item("result", "tool", "deployment.apps/api configured"),
      ],
      [goal],
    );
    expect(second.blocked).toBe("");
    expect(second.done).toBe("deployment.apps/api configured");
    // Another call succeeding does not resolve it.
    const other = deterministicParts(
      first,
      [item("tool_call", "assistant", "npm test"), item("result", "tool", "212 passed")],
      [goal],
    );
    expect(other.blocked).toBe(first.blocked);
    expect(other.done).toBe("npm test: 212 passed");
  });

  it("reads prose, not the log lines under it", () => {
    seq = 0;
    const parts = deterministicParts(
      null,
      [
        item(
          "note",
          "assistant",
          "Build finished with no errors.\n  [001] layer 3f2a ok\n  [002] layer 9c1d ok",
        ),
        item("note", "assistant", "我的镜像已经推送到仓库。"),
      ],
      [item("goal", "user", "Ship it")],
    );
    // Mostly Chinese: Chinese separators.
    expect(parts.done).toBe("Build finished；我的镜像推送到仓库");
    expect(parts.blocked).toBe("");
  });

  it("handles a session mixing Chinese and English", () => {
    seq = 0;
    const goal = item("goal", "user", "把 api 部署到 staging");
    const compress = [
      item("tool_call", "assistant", "docker build -t api:1.4 ."),
      item("result", "tool", "成功构建镜像 api:1.4"),
      item("note", "assistant", "已经 push 到 registry。"),
      item("result", "tool", "kubectl apply 失败：ImagePullBackOff"),
      item("note", "assistant", "接下来检查 registry 的 credentials。"),
    ];
    const parts = deterministicParts(null, compress, [goal]);
    expect(parts.done).toBe("构建镜像 api:1.4；push 到 registry");
    expect(parts.blocked).toBe("kubectl apply 失败：ImagePullBackOff");
    expect(parts.next).toBe("检查 registry 的 credentials");
    expectWholeWords(parts.done, compress);
  });

  it("drops pleasantries, thinking aloud and repeated confirmations", () => {
    seq = 0;
    const compress = [
      item("message", "assistant", "Thanks!"),
      item("note", "assistant", "Let me think about the order of the batches."),
      item("result", "tool", "Tests passed."),
      item("message", "user", "OK"),
      item("result", "tool", "Tests passed."),
    ];
    const parts = deterministicParts(null, compress, [item("goal", "user", "Fix the build")]);
    expect(parts.done).toBe("Tests passed");
  });

  it("merges steps that differ in a number and counts the older ones it cannot keep", () => {
    seq = 0;
    const batches = Array.from({ length: 20 }, (_, i) =>
      item(
        "result",
        "tool",
        `Batch ${i + 1} copied: 10000 rows from orders_${i + 1}, checksums match.`,
      ),
    );
    const merged = deterministicParts(null, batches, [item("goal", "user", "Migrate orders")]);
    expect(merged.done).toBe("Batch 1–20 copied: 10000 rows from orders_1–20");

    seq = 0;
    const verbs = [
      "built",
      "tested",
      "pushed",
      "tagged",
      "signed",
      "scanned",
      "deployed",
      "checked",
    ];
    const many = Array.from({ length: 20 }, (_, i) =>
      item(
        "note",
        "assistant",
        `I ${verbs[i % verbs.length]} the ${["api", "web", "worker"][i % 3]} service for region ${String.fromCharCode(97 + i)}.`,
      ),
    );
    const parts = deterministicParts(null, many, [item("goal", "user", "Roll out v2 everywhere")]);
    expect(total(parts)).toBeLessThanOrEqual(200);
    const [counted, ...kept] = parts.done.split("; ");
    const folded = Number(/^\+(\d+) earlier steps$/u.exec(counted!)?.[1]);
    expect(folded).toBeGreaterThan(0);
    // Every step is either kept or counted, and the newest are the ones kept.
    expect(folded + kept.length).toBe(20);
    expect(kept.at(-1)).toBe("tagged web service for region t");
    expectWholeWords(parts.done, many);
  });

  it("keeps the previous summary's steps, oldest first, when folding again", () => {
    seq = 0;
    const first = deterministicParts(
      null,
      [
        item("note", "assistant", "Built image api:1.4."),
        item("note", "assistant", "Pushed it to the registry."),
      ],
      [item("goal", "user", "Ship api v1.4")],
    );
    expect(first.done).toBe("Built image api:1.4; Pushed to registry");
    const second = deterministicParts(
      first,
      [item("note", "assistant", "Deployed to staging.")],
      [item("goal", "user", "Ship api v1.4")],
    );
    expect(second.done).toBe("Built image api:1.4; Pushed to registry; Deployed to staging");
    // Folding many times: the count grows, the newest stay, nothing goes uncounted.
    const regions =
      "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar".split(
        " ",
      );
    let parts: SummaryParts = second;
    for (const region of regions) {
      parts = deterministicParts(
        parts,
        [item("note", "assistant", `Verified region ${region} after the rollout.`)],
        [item("goal", "user", "Ship api v1.4")],
      );
      expect(total(parts)).toBeLessThanOrEqual(200);
    }
    const [counted, ...kept] = parts.done.split("; ");
    expect(Number(/^\+(\d+) earlier steps$/u.exec(counted!)?.[1]) + kept.length).toBe(18);
    expect(kept.at(-1)).toBe("Verified region oscar after rollout");
    // Steps that differ in a number merge across compressions too.
    const batches = deterministicParts(
      { goal: "Migrate orders", done: "Batch 1–20 copied", blocked: "", next: "" },
      [item("result", "tool", "Batch 21 copied.")],
      [],
    );
    expect(batches.done).toBe("Batch 1–21 copied");
  });

  it("counts the earlier steps in Chinese for a Chinese session", () => {
    seq = 0;
    const steps = Array.from({ length: 30 }, (_, i) =>
      item("note", "assistant", `检查了第${i + 1}个分片的订单表和索引，结果一致。`),
    );
    const parts = deterministicParts(
      null,
      steps.filter((_, i) => i % 2 === 0),
      [item("goal", "user", "校验所有分片")],
    );
    expect(total(parts)).toBeLessThanOrEqual(200);
    expect(parts.done).toContain("检查了第");
    expectWholeWords(parts.done, steps);
  });

  it("keeps the goal verbatim, and shortens a long one at a word", () => {
    seq = 0;
    const goal =
      "Migrate the orders table of the billing database to the new partitioned schema without downtime, keeping the old table readable and in sync until every consumer has switched over to the new one";
    const parts = deterministicParts(
      null,
      [item("result", "tool", "Batch 1 copied.")],
      [item("goal", "user", goal)],
    );
    expect(goal.startsWith(parts.goal.replace(/…$/u, ""))).toBe(true);
    expect(parts.goal).toMatch(/…$/u);
    expect(goal).toContain(`${parts.goal.replace(/…$/u, "")} `);
    expect(parts.done).toBe("Batch 1 copied");
    expect(total(parts)).toBeLessThanOrEqual(200);
  });

  it("stays within 200 characters, with distinct blocked and next, whatever the items", () => {
    const words = [
      "built",
      "image",
      "api:1.4",
      "failed",
      "error",
      "next:",
      "timeout",
      "部署",
      "失败",
      "下一步：",
      "端口被占用",
      "推送到仓库",
      "OK,",
      "now",
      "I",
      "successfully",
      "。",
      ".",
      "，",
      "deployed",
      "staging",
      "0 failed",
      "😀",
      "x".repeat(70),
      "很长的中文句子没有任何标点符号一直写下去".repeat(3),
    ];
    const itemArbitrary = fc.record({
      kind: fc.constantFrom(...ITEM_KINDS),
      role: fc.constantFrom(...ITEM_ROLES),
      words: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 40 }),
    });
    const previousArbitrary = fc.option(
      fc.record({
        goal: fc.string({ unit: "grapheme", maxLength: 80 }),
        done: fc.string({ unit: "grapheme", maxLength: 120 }),
        blocked: fc.string({ unit: "grapheme", maxLength: 60 }),
        next: fc.string({ unit: "grapheme", maxLength: 60 }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.array(itemArbitrary, { minLength: 0, maxLength: 30 }),
        fc.array(itemArbitrary, { minLength: 0, maxLength: 4 }),
        previousArbitrary,
        (compressed, kept, previous) => {
          seq = 0;
          const toItem = ({
            kind,
            role,
            words: text,
          }: {
            kind: ItemKind;
            role: ItemRole;
            words: string[];
          }) => item(kind, role, text.join(" "));
          const parts = deterministicParts(previous, compressed.map(toItem), kept.map(toItem));
          expect(total(parts)).toBeLessThanOrEqual(200);
          if (parts.blocked) expect(parts.next).not.toBe(parts.blocked);
          for (const part of Object.values(parts)) expect(part).not.toMatch(/\s{2}|\n/u);
        },
      ),
      { numRuns: 300 },
    );
  });
});
