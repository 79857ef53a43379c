/**
 * Which items a compression folds into the summary. The goal, the latest instruction and the
 * tool calls still waiting for a result stay verbatim; the rest goes oldest first, until the
 * session fits comfortably, so recent turns stay readable word for word.
 */
import type { TokenCounter } from "../summarize/summarize-memories.js";
import { measure, renderContext, renderItem } from "./context.js";
import type { WorkingItem, WorkingSession, WorkingSummary } from "./types.js";

/**
 * After compressing, the session should sit this far under its budget, so the next few
 * appends do not each pay for another compression.
 */
export const TARGET_FILL = 0.75;

/** A stand-in for the summary a compression will write: 200 wide characters. */
const PLACEHOLDER: WorkingSummary = {
  goal: "目".repeat(50),
  done: "完".repeat(70),
  blocked: "阻".repeat(40),
  next: "下".repeat(40),
  method: "deterministic",
  items_summarized: 9999,
  updated_at: new Date(0),
};

/** The smallest summary there is: a compression costs at least this. */
function emptySummary(itemsSummarized: number): WorkingSummary {
  return {
    goal: "",
    done: "",
    blocked: "",
    next: "",
    method: "deterministic",
    items_summarized: itemsSummarized,
    updated_at: new Date(0),
  };
}

/**
 * Whether replacing the session's items by `summary` and the kept ones makes it smaller, in
 * tokens: a compression that does not is not applied (folding three short items into a summary
 * would cost more than the items did).
 */
export function shrinks(
  session: WorkingSession,
  plan: CompressionPlan,
  summary: WorkingSummary,
  tokens: TokenCounter,
): boolean {
  const after = tokens.count(renderContext(session.session_id, summary, plan.keep));
  return after < measure(session, tokens).tokens;
}

/** The latest goal, the latest instruction and every tool call no result has followed yet. */
export function protectedItems(items: readonly WorkingItem[]): {
  goal: WorkingItem | undefined;
  instruction: WorkingItem | undefined;
  activeCalls: WorkingItem[];
} {
  const latest = (kind: WorkingItem["kind"]) => items.findLast((item) => item.kind === kind);
  const lastResult = latest("result")?.seq ?? 0;
  return {
    goal: latest("goal"),
    instruction: latest("instruction"),
    activeCalls: items.filter((item) => item.kind === "tool_call" && item.seq > lastResult),
  };
}

export interface CompressionPlan {
  /** Folded into the new summary. */
  compress: WorkingItem[];
  /** Kept verbatim. */
  keep: WorkingItem[];
}

/**
 * Plans a compression of `session` to fit `budget`, or, with `force`, of every item that need
 * not stay verbatim. Returns null when there is nothing to compress, or when even an empty
 * summary would cost at least what it replaces (then no summary need be written to know).
 */
export function planCompression(
  session: WorkingSession,
  budget: number,
  tokens: TokenCounter,
  force: boolean,
): CompressionPlan | null {
  const { goal, instruction, activeCalls } = protectedItems(session.items);
  const verbatim = new Set([goal, instruction].filter((item) => item !== undefined));
  const calls = new Set(activeCalls);
  const candidates = session.items.filter((item) => !verbatim.has(item) && !calls.has(item));
  if (force) {
    return candidates.length === 0
      ? null
      : worthWriting(session, split(session.items, new Set(candidates)), tokens);
  }

  const target = Math.floor(budget * TARGET_FILL);
  const frame = tokens.count(renderContext(session.session_id, PLACEHOLDER, []));
  const cost = new Map(session.items.map((item) => [item, tokens.count(renderItem(item)) + 1]));
  let remaining = frame + session.items.reduce((sum, item) => sum + cost.get(item)!, 0);
  const chosen = new Set<WorkingItem>();
  for (const item of candidates) {
    if (remaining <= target) break;
    chosen.add(item);
    remaining -= cost.get(item)!;
  }
  // Open tool calls go only when nothing else can bring the session within its budget, oldest
  // first, and no more of them than that takes.
  for (const item of activeCalls) {
    if (remaining <= budget) break;
    chosen.add(item);
    remaining -= cost.get(item)!;
  }
  // A summary is rewritten only when it absorbs something.
  return chosen.size === 0 ? null : worthWriting(session, split(session.items, chosen), tokens);
}

function worthWriting(
  session: WorkingSession,
  plan: CompressionPlan,
  tokens: TokenCounter,
): CompressionPlan | null {
  const summarized = (session.summary?.items_summarized ?? 0) + plan.compress.length;
  return shrinks(session, plan, emptySummary(summarized), tokens) ? plan : null;
}

function split(items: readonly WorkingItem[], chosen: ReadonlySet<WorkingItem>): CompressionPlan {
  return {
    compress: items.filter((item) => chosen.has(item)),
    keep: items.filter((item) => !chosen.has(item)),
  };
}
