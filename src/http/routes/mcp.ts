/** MCP over Streamable HTTP (stateless), handled by the MCP server's own web-standard handler. */
import { z } from "zod";
import type { RouteSpec } from "../route.js";

const JsonRpcMessage = z
  .looseObject({ jsonrpc: z.literal("2.0") })
  .describe("A JSON-RPC 2.0 message of the Model Context Protocol.");

export const mcpRoute: RouteSpec = {
  method: "all",
  path: "/mcp",
  operationId: "mcp",
  summary: "Model Context Protocol endpoint (Streamable HTTP, stateless)",
  description:
    "POST JSON-RPC messages; answers are JSON or an event stream. Use an MCP client rather than calling this directly.",
  tags: ["mcp"],
  auth: true,
  hostCheck: true,
  request: { body: JsonRpcMessage },
  responses: {
    200: {
      description: "The JSON-RPC response, as JSON or as a server-sent event stream.",
      content: { "application/json": undefined, "text/event-stream": undefined },
    },
    202: { description: "A notification or response was accepted." },
    // The MCP SDK answers protocol errors itself, as JSON-RPC errors rather than ErrorOutput.
    400: {
      description: "A malformed MCP message, as a JSON-RPC error.",
      content: { "application/json": undefined },
    },
    406: {
      description:
        "The Accept header lacks application/json and text/event-stream (JSON-RPC error).",
      content: { "application/json": undefined },
    },
  },
  errors: [413],
  handle: (c, { mcp }) => mcp(c.req.raw),
};
