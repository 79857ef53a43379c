import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined, numeric } from "../parse.js";

interface AuditOptions {
  since?: string;
  until?: string;
  operation?: string;
  memory?: string;
  target?: string;
  limit?: string;
  json?: boolean;
}

export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description(
      "show the audit log: forgets, deletes, merges, supersedes, restores, and shared memory's reviews, grants and trust changes",
    )
    .option("--since <iso>", "entries at or after this time")
    .option("--until <iso>", "entries before this time")
    .option(
      "--operation <op>",
      "forget | delete | merge | supersede | restore | confirm | reject | grant | revoke | trust",
    )
    .option("--memory <id>", "entries about this memory only")
    .option("--target <name>", "entries about this group or source only")
    .option("--limit <n>", "at most this many, newest first (default 100)")
    .option("--json", "print the result as JSON")
    .action(async (options: AuditOptions, command: Command) => {
      await withHindsight(
        command,
        options,
        {
          since: "--since",
          until: "--until",
          operation: "--operation",
          memory_id: "--memory",
          target: "--target",
          limit: "--limit",
        },
        async (memory) => {
          const result = await memory.audit(
            defined({
              since: options.since,
              until: options.until,
              operation: options.operation,
              memory_id: options.memory,
              target: options.target,
              limit: numeric(options.limit),
            }),
          );
          printResult(result, options, () =>
            result.entries.length === 0
              ? "no audit entries"
              : result.entries
                  .map(
                    (e) =>
                      `${e.at.toISOString()}  ${e.operation.padEnd(9)} ${(e.layer ?? "").padEnd(8)} ${e.memory_id ?? e.target}  ${e.reason}`,
                  )
                  .join("\n"),
          );
        },
      );
    });
}
