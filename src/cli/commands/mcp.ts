import type { Command } from "commander";
import { type LogLevel, stderrLogger } from "../../adapters.js";
import { runStdioServer } from "../../mcp/stdio.js";
import { type GlobalFlags, withHindsight } from "../context.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description("serve the memory tools to an MCP client over stdio (stdout is the protocol)")
    .action(async (_options: unknown, command: Command) => {
      // No --json here: stdout belongs to MCP, and errors before the server starts go to
      // stderr with an exit code, like every other command.
      await withHindsight(command, {}, {}, async (memory) => {
        // withHindsight has already rejected an invalid level, so this one is valid.
        const flags = command.optsWithGlobals<GlobalFlags>();
        const level = (flags.logLevel ?? process.env.HINDSIGHT_LOG_LEVEL ?? "info") as LogLevel;
        await runStdioServer(memory, stderrLogger(level));
      });
    });
}
