import { ForgetOutput } from "../../core/outputs.js";
import { ForgetInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const forgetTool = defineTool({
  name: "memory_forget",
  title: "Forget a memory",
  description:
    "Forget one memory by id. Call it when the user asks you to forget something, or when a " +
    "recalled memory is wrong or obsolete. mode 'soft' (default) archives it: left out of " +
    "recall, reversible; mode 'hard' deletes it permanently — use hard only when the user " +
    "explicitly asks for deletion. 按 id 遗忘一条记忆（soft 归档，hard 永久删除）。",
  input: ForgetInput,
  output: ForgetOutput,
  // Forgetting twice leaves the same state (the second hard delete reports NOT_FOUND).
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(memory, input) {
    const result = await memory.forget(input);
    return {
      structured: { ...result },
      text: `Memory ${result.id} (${result.layer}) ${result.status}.`,
    };
  },
});
