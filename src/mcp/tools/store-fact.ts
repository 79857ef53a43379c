import { StoreSemanticOutput } from "../../core/outputs.js";
import { StoreSemanticInput } from "../../core/schemas.js";
import { defineTool } from "../tool.js";

export const storeFactTool = defineTool({
  name: "memory_store_fact",
  title: "Store a rule or fact",
  description:
    "Store a lasting rule or fact (semantic memory): something true beyond one task, such as a " +
    "user's preference, a project convention or a lesson learnt. Call it when you learn such a " +
    "thing and are at least 0.7 confident of it. A fact that repeats a known " +
    "one is merged into it; one that contradicts it supersedes it. To share it with the other " +
    "agents of a group you belong to, give shared_group and source (where the knowledge comes " +
    "from); knowledge from a low-trust source stays quarantined, visible only to you, until a " +
    "reviewer confirms it. " +
    "存储规则或事实（语义记忆）；给出 shared_group 与 source 可与同组的其他智能体共享。",
  input: StoreSemanticInput,
  output: StoreSemanticOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(memory, input) {
    const stored = await memory.storeSemantic(input);
    const notes = [
      stored.merged_into ? " It repeated a known fact and was merged into it." : "",
      stored.superseded ? ` It supersedes ${stored.superseded.join(", ")}.` : "",
      stored.review_status === "quarantined"
        ? ` Shared with ${stored.shared_group} but quarantined: its source is low-trust, so only you recall it until a reviewer confirms it.`
        : stored.shared_group
          ? ` Shared with ${stored.shared_group}.`
          : "",
    ].join("");
    return { structured: { ...stored }, text: `Stored semantic memory ${stored.id}.${notes}` };
  },
});
