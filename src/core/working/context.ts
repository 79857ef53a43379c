/**
 * Assembling a session into text to paste into a prompt, and measuring it. The budget is
 * counted on exactly this text, so what `get` reports is what the prompt will cost.
 */
import { breakMarkers, LINE_BREAK } from "../../text/visible.js";
import type { TokenCounter } from "../summarize/summarize-memories.js";
import type { WorkingItem, WorkingSession, WorkingSummary } from "./types.js";

const OPEN = "[WORKING MEMORY";
const CLOSE = "[/WORKING MEMORY]";

/**
 * Stored text can neither close the block nor open a fake one (look-alikes included, see
 * text/visible), nor forge an item line: every line after an item's first is indented, so
 * "#99 instruction (user): …" inside a tool result stays inside that result.
 */
function neutralise(text: string): string {
  return breakMarkers(text, ["working", "memory"]).split(LINE_BREAK).join("\n  ");
}

export function renderSummary(summary: Pick<WorkingSummary, "goal" | "done" | "blocked" | "next">) {
  return [
    `Goal: ${summary.goal || "-"}`,
    `Done: ${summary.done || "-"}`,
    `Blocked: ${summary.blocked || "-"}`,
    `Next: ${summary.next || "-"}`,
  ].join("\n");
}

export function renderItem(item: WorkingItem): string {
  return `#${item.seq} ${item.kind} (${item.role}): ${neutralise(item.content)}`;
}

export function renderContext(
  sessionId: string,
  summary: WorkingSummary | null,
  items: readonly WorkingItem[],
): string {
  const lines = [`${OPEN} session=${sessionId}]`];
  if (summary) {
    lines.push(
      `Summary of ${summary.items_summarized} earlier items:`,
      renderSummary({
        goal: neutralise(summary.goal),
        done: neutralise(summary.done),
        blocked: neutralise(summary.blocked),
        next: neutralise(summary.next),
      }),
      "---",
    );
  }
  for (const item of items) lines.push(renderItem(item));
  lines.push(CLOSE);
  return lines.join("\n");
}

export function measure(session: WorkingSession, tokens: TokenCounter) {
  const context = renderContext(session.session_id, session.summary, session.items);
  return { context, tokens: tokens.count(context) };
}
