import { FeedbackOutput } from "../../core/outputs.js";
import { FeedbackInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const feedbackTool = defineTool({
  name: "memory_feedback",
  title: "Rate a recalled memory",
  description:
    "Tell memory whether a memory you recalled was useful. Call it after using a recalled rule " +
    "or fact: useful true when it helped (its confidence rises), false when it was wrong, " +
    "outdated or irrelevant (its confidence falls; very low confidence moves it to cold " +
    "storage). Add a short reason when you know it. 反馈召回的记忆是否有用：有用提高置信度，无用降低。",
  input: FeedbackInput,
  output: FeedbackOutput,
  // Each call moves confidence again: not idempotent; nothing is deleted.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(memory, input) {
    const result = await memory.feedback(input);
    return {
      structured: { ...result },
      text:
        `Memory ${result.id} (${result.layer}): confidence ${result.previous_confidence.toFixed(2)} → ` +
        `${result.confidence.toFixed(2)}${result.status === "archived" ? ", archived" : ""}.`,
    };
  },
});
