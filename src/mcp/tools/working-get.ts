import { toJson } from "../../core/outputs.js";
import { WorkingContextOutput, WorkingGetInput } from "../../core/working/schemas.js";
import { defineTool } from "../tool.js";

export const workingGetTool = defineTool({
  name: "working_memory_get",
  title: "Get working memory",
  description:
    "Get the current task's working memory within its token budget: the summary of earlier " +
    "work (goal, done, blocked, next) and the items kept word for word, assembled as text to " +
    "put into your context. Call it when you resume a task or lost track of what was done. " +
    "A budget given here becomes the session's. A session that never started, ended or " +
    "expired (24 h after its last write by default) is NOT_FOUND. 获取当前任务的工作记忆（预算内）。",
  input: WorkingGetInput,
  output: WorkingContextOutput,
  // A smaller budget may compress the session, but what it records is kept in the summary.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(memory, input) {
    const context = await memory.workingGet(input);
    return { structured: toJson(context) as Record<string, unknown>, text: context.context };
  },
});
