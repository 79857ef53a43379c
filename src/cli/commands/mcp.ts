import type { Command } from "commander";
import { withHindsight } from "../context.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description("serve the memory tools to an MCP client over stdio (stdout is the protocol)")
    .action(async (_options: unknown, command: Command) => {
      // No --json here: stdout belongs to MCP, and errors before the server starts go to
      // stderr with an exit code, like every other command.
      await withHindsight(
        command,
        {},
        {},
        async (memory, logger) => {
          // Loaded when the command runs: no other command pays for the MCP SDK.
          const { runStdioServer } = await import("../../mcp/stdio.js");
          await runStdioServer(memory, logger);
        },
        "now",
      );
    });
}
