import { WorkingEndInput, WorkingEndOutput } from "../../core/working/schemas.js";
import { defineTool } from "../tool.js";

export const workingEndTool = defineTool({
  name: "working_memory_end",
  title: "End a working-memory session",
  description:
    "Finish the current task: its working-memory session becomes an episodic memory (task_type, " +
    "outcome, an 80-character summary of goal, key action and result; the session's items in " +
    "its metadata) that later tasks can recall, and the session is cleared. Call it when the " +
    "task succeeds, fails or is abandoned. 结束会话：转存为情景记忆并清空工作记忆。",
  input: WorkingEndInput,
  output: WorkingEndOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(memory, input) {
    const result = await memory.workingEnd(input);
    return {
      structured: { ...result },
      text: `Stored the session as episodic memory ${result.episodic_id}: ${result.summary}`,
    };
  },
});
