import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (first use applies them too)")
    .option("--json", "print the result as JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      await withHindsight(command, options, {}, async (memory) => {
        const result = { ...(await memory.migrate()), store: (await memory.stats()).store };
        printResult(result, options, () =>
          result.applied.length > 0
            ? `applied migrations ${result.applied.join(", ")}; schema version ${result.current}`
            : `schema is up to date (version ${result.current})`,
        );
      });
    });
}
