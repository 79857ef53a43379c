/**
 * MCP over Streamable HTTP as a web-standard `(Request) => Promise<Response>` handler, so the
 * REST layer mounts it at `/mcp` (Hono: `app.all("/mcp", (c) => handler(c.req.raw))`).
 * Host/Origin checks and auth belong to that layer, not here.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { silentLogger } from "../adapters/logger.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { createMcpServer } from "./server.js";

export interface McpHttpOptions {
  logger?: Logger;
}

export type McpHttpHandler = (request: Request) => Promise<Response>;

export function createMcpHttpHandler(
  memory: MemoryApi,
  options: McpHttpOptions = {},
): McpHttpHandler {
  const logger = options.logger ?? silentLogger;
  return async (request) => {
    // Stateless: no session survives a request, so GET (server-initiated stream) and DELETE
    // (end session) have nothing to act on; the spec lets a server answer 405 to both.
    if (request.method !== "POST") return methodNotAllowed();
    // One message per request. MCP 2025-06-18 dropped JSON-RPC batching, and a batch of 100
    // tool calls was one request to the rate limit and to every per-request bound.
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(await request.text());
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the body is not JSON");
    }
    if (Array.isArray(parsedBody)) {
      if (parsedBody.length !== 1) {
        return jsonRpcError(
          400,
          -32600,
          "Invalid Request: JSON-RPC batches are not accepted; send one message per request (MCP 2025-06-18)",
        );
      }
      parsedBody = parsedBody[0];
    }
    // A fresh server and transport per request: the stateless transport refuses reuse, and
    // nothing is kept between requests, so any instance of hindsight behind a load
    // balancer can answer.
    const server = createMcpServer(memory, { logger });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // Plain JSON responses: our tools send no progress notifications, and a complete
      // response lets us close the per-request server as soon as it is built.
      enableJsonResponse: true,
    });
    transport.onerror = (error) => logger.debug(`mcp http: ${error.message}`);
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody });
    } catch (error) {
      // Tool failures are already results; reaching here is our bug, not the client's.
      logger.error("mcp http: request failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return jsonRpcError(500, -32603, "Internal error");
    } finally {
      await server.close().catch((error: unknown) => {
        logger.warn(`mcp http: closing the request's server failed: ${String(error)}`);
      });
    }
  };
}

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { ...headers, "Content-Type": "application/json" },
  });
}

function methodNotAllowed(): Response {
  return jsonRpcError(
    405,
    -32000,
    "Method not allowed: this MCP endpoint is stateless, use POST.",
    {
      Allow: "POST",
    },
  );
}
