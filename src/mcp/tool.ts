/**
 * What a hindsight MCP tool is: metadata for `tools/list` and one service call. Tools are
 * thin translators: validation is the shared zod schema's, the work is the MemoryApi's.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { validate } from "../core/validate.js";
import { toolError } from "./errors.js";

export interface ToolReply {
  /** The JSON of the service result; must match the tool's output schema. */
  structured: Record<string, unknown>;
  /** What a model reads. */
  text: string;
}

export interface MemoryTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Tells the model when to call the tool, not only what it does. */
  description: string;
  input: Input;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(memory: MemoryApi, input: z.output<Input>): Promise<ToolReply>;
}

/** Keeps each tool's `run` typed by its own input schema. */
export function defineTool<Input extends z.ZodObject>(tool: MemoryTool<Input>): MemoryTool {
  return tool as unknown as MemoryTool;
}

/**
 * Runs a tool on raw arguments. Arguments are validated here with the shared `validate()`
 * (not by the SDK), so a bad argument is an `isError` result naming the field, as the MCP
 * spec asks, with the same message the CLI and REST give.
 */
export async function runTool(
  tool: MemoryTool,
  memory: MemoryApi,
  args: unknown,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const reply = await tool.run(memory, validate(tool.input, args ?? {}));
    // The SDK's McpServer checks this too; we replaced its tools/call handler, so keep the
    // promise here: a client must never receive structuredContent its schema rejects.
    const checked = tool.output.safeParse(reply.structured);
    if (!checked.success) {
      throw new Error(`${tool.name} produced output outside its schema: ${checked.error.message}`);
    }
    return { content: [{ type: "text", text: reply.text }], structuredContent: reply.structured };
  } catch (error) {
    return toolError(error, tool.name, logger);
  }
}
