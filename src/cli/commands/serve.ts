import type { Command } from "commander";
import type { ServeOptions } from "./serve-run.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve the REST API (/v1) and MCP over Streamable HTTP (/mcp) on one port")
    .option(
      "--host <host>",
      "address to listen on; other than loopback, set HINDSIGHT_API_KEY",
      "127.0.0.1",
    )
    .option("--port <port>", "port to listen on; 0 picks a free one", "8080")
    .action(async (options: ServeOptions, command: Command) => {
      const { runServe } = await import("./serve-run.js");
      await runServe(options, command);
    });
}
