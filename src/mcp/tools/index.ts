import type { MemoryTool } from "../tool.js";
import { feedbackTool } from "./feedback.js";
import { forgetTool } from "./forget.js";
import { historyTool } from "./history.js";
import { recallTool } from "./recall.js";
import { statsTool } from "./stats.js";
import { storeTool } from "./store.js";
import { storeFactTool } from "./store-fact.js";
import { summarizeTool } from "./summarize.js";
import { workingAppendTool } from "./working-append.js";
import { workingEndTool } from "./working-end.js";
import { workingGetTool } from "./working-get.js";

/** Every tool the server lists, in the order clients show them. */
export const MEMORY_TOOLS: readonly MemoryTool[] = [
  storeTool,
  storeFactTool,
  recallTool,
  forgetTool,
  summarizeTool,
  statsTool,
  feedbackTool,
  historyTool,
  workingAppendTool,
  workingGetTool,
  workingEndTool,
];
