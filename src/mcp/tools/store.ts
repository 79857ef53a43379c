import { StoreOutput } from "../../core/outputs.js";
import { StoreEpisodicInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const storeTool = defineTool({
  name: "memory_store",
  title: "Store a memory",
  description:
    "Store one task interaction as an episodic memory, so later sessions can learn from it. " +
    "Call it when you finish (or fail) a task worth remembering, or when the user states new " +
    "stable information (a preference, fact, plan or agreement). Write a self-contained " +
    "summary in the user's language; only store what you are at least 0.7 confident of. " +
    "Instead of a summary you may pass the raw interaction: a summary of at most 80 characters " +
    "is then written for it and returned. Returns the memory id. " +
    "存储一次任务经历（情景记忆）：任务完成或用户给出新的稳定信息时调用；可传 summary 或原始 interaction。",
  input: StoreEpisodicInput,
  output: StoreOutput,
  // Each call adds a memory (unless the same client `id` is given again): not idempotent.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(memory, input) {
    const stored = await memory.storeEpisodic(input);
    const written =
      stored.summary === undefined ? "" : ` Summary (${stored.summary_source}): ${stored.summary}`;
    return { structured: { ...stored }, text: `Stored episodic memory ${stored.id}.${written}` };
  },
});
