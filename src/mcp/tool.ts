/**
 * What a hindsight MCP tool is: metadata for `tools/list` and one service call. Tools are
 * thin translators: the input schema is the one the service validates with, and the service
 * validates each call once (the tool passes the arguments as received).
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
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
  /** `input` is the arguments as the client sent them: the service validates them. */
  run(memory: MemoryApi, input: unknown): Promise<ToolReply>;
}

/** A tool, its input schema kept for `tools/list`. */
export function defineTool<Input extends z.ZodObject>(tool: MemoryTool<Input>): MemoryTool {
  return tool as unknown as MemoryTool;
}

/**
 * Runs a tool on raw arguments. The service validates them with the tool's own schema (not the
 * SDK, and not twice), so a bad argument is an `isError` result naming the field, as the MCP
 * spec asks, with the same message the CLI and REST give.
 */
export async function runTool(
  tool: MemoryTool,
  memory: MemoryApi,
  args: unknown,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const reply = await tool.run(memory, args ?? {});
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
