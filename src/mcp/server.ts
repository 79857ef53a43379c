/**
 * The hindsight MCP server: the memory tools (tool.ts, from the operation registry) and one
 * prompt over a MemoryApi. Transport-free; `stdio.ts` and `http.ts` connect it.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { silentLogger } from "../adapters/logger.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { registerGuidelinesPrompt } from "./prompt.js";
import { SERVER_INFO, SERVER_INSTRUCTIONS } from "./server-info.js";
import { MEMORY_TOOLS, type MemoryTool, runTool } from "./tool.js";

export interface McpServerOptions {
  /** Where failures are logged; stderr under stdio. Defaults to silent. */
  logger?: Logger;
}

export function createMcpServer(memory: MemoryApi, options: McpServerOptions = {}): McpServer {
  const logger = options.logger ?? silentLogger;
  const server = new McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS });
  const registered = new Map<string, { tool: MemoryTool; enabled: () => boolean }>();
  for (const tool of MEMORY_TOOLS) {
    const handle = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // The zod object itself rather than its `.shape`: the listed JSON Schema then keeps
        // `additionalProperties: false`, so models do not invent arguments.
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      (args) => runTool(tool, memory, args, logger),
    );
    registered.set(tool.name, { tool, enabled: () => handle.enabled });
  }
  registerGuidelinesPrompt(server);

  // McpServer 1.32 answers an unknown tool and schema-invalid arguments with `isError`
  // results worded by the SDK. The MCP spec makes an unknown tool a protocol error, and we
  // want bad arguments worded by the shared validator (`top_k: Too big: …`), so tools/call
  // is dispatched here; tools/list stays the SDK's.
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = registered.get(request.params.name);
    if (!entry?.enabled()) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    return runTool(entry.tool, memory, request.params.arguments, logger);
  });
  return server;
}
