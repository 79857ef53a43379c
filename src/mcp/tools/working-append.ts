import { WorkingAppendInput, WorkingAppendOutput } from "../../core/working/schemas.js";
import { defineTool } from "../tool.js";

export const workingAppendTool = defineTool({
  name: "working_memory_append",
  title: "Append to working memory",
  description:
    "Record what is happening in the current task, item by item, in a working-memory session " +
    "(session_id: your conversation or task run). Call it as the task goes: the goal once (kind goal), each new " +
    "user request (instruction), tool calls in progress (tool_call) and their results (result), " +
    "and notes on progress or plans (note). When the session outgrows its token budget (default " +
    "4000), older items are compressed into a summary of goal, steps done, where you are stuck " +
    "and next step; the goal, the latest instruction and open tool calls stay word for word. " +
    "记录当前任务的工作记忆：目标、指令、工具调用与结果；超出预算时自动压缩。",
  input: WorkingAppendInput,
  output: WorkingAppendOutput,
  // Each call adds an item (unless the same item id is given again).
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(memory, input) {
    const result = await memory.workingAppend(input);
    return {
      structured: { ...result },
      text: `Appended item #${result.seq} to ${result.session} (${result.tokens}/${result.budget} tokens${result.compressed ? "; older items compressed" : ""}).`,
    };
  },
});
