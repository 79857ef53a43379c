import { StatsOutput } from "../../core/outputs.js";
import { StatsInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const statsTool = defineTool({
  name: "memory_stats",
  title: "Memory statistics",
  description:
    "Count memories per layer (episodic, semantic) and status (active, archived), and name " +
    "the store and embedder in use. Call it when the user asks what you remember overall or " +
    "to check that memory works. 统计各层记忆数量及存储、嵌入模型。",
  input: StatsInput,
  output: StatsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(memory, input) {
    const stats = await memory.stats(input);
    const line = (layer: "episodic" | "semantic") =>
      `${layer}: total ${stats[layer].total}, active ${stats[layer].active}, archived ${stats[layer].archived}`;
    return {
      structured: { ...stats },
      text: [
        line("episodic"),
        line("semantic"),
        `store: ${stats.store}`,
        `embedder: ${stats.embedder}`,
      ].join("\n"),
    };
  },
});
