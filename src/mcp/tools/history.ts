import { HistoryOutput, toJson } from "../../core/outputs.js";
import { MemoryIdInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const historyTool = defineTool({
  name: "memory_history",
  title: "History of a memory",
  description:
    "Show what happened to one memory, when and why: created, merged with a near-duplicate, " +
    "superseded by a newer fact, archived by decay, reactivated, restored, rated. Call it when " +
    "the user asks why you believe something, where a rule came from (the episodes it was drawn " +
    "from), or why an old fact no longer applies. 查看一条记忆的变更历史及来源。",
  input: MemoryIdInput,
  output: HistoryOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(memory, input) {
    const history = await memory.history(input);
    const lines = history.events.map((e) => `${e.at.toISOString()} ${e.event}: ${e.reason}`);
    if (history.sources.length > 0)
      lines.push(`Drawn from episodes ${history.sources.join(", ")}.`);
    if (history.superseded_by) lines.push(`Superseded by ${history.superseded_by}.`);
    return {
      structured: toJson(history) as Record<string, unknown>,
      text: `Memory ${history.id} (${history.layer}, ${history.status}):\n${lines.join("\n")}`,
    };
  },
});
