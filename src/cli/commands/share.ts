import type { Command } from "commander";
import type { Group } from "../../core/sharing/types.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined, numeric } from "../parse.js";

interface ShareOptions {
  reason?: string;
  note?: string;
  group?: string;
  limit?: string;
  by?: string;
  json?: boolean;
}

const FLAGS = {
  group: "<group>",
  agent_ids: "<agent...>",
  source: "<source>",
  trust: "<level>",
  note: "--note",
  reason: "--reason",
  limit: "--limit",
  memory_id: "<id>",
  reviewer: "--by",
};

const groupText = (group: Group) =>
  group.members.length === 0
    ? `${group.group}: no members`
    : `${group.group}: ${group.members.map((member) => member.agent_id).join(", ")}`;

export function registerShare(program: Command): void {
  const share = program
    .command("share")
    .description(
      "shared memory: groups of agents, source trust, and the quarantine of low-trust writes",
    );

  for (const action of ["grant", "revoke"] as const) {
    share
      .command(action)
      .description(
        action === "grant"
          ? "let agents recall (and write) the knowledge shared with a group"
          : "take agents out of a group",
      )
      .argument("<group>", "group name")
      .argument("<agent...>", "agent ids")
      .option("--reason <text>", "why, kept in the audit log")
      .option("--json", "print the result as JSON")
      .action(async (group: string, agents: string[], options: ShareOptions, command: Command) => {
        await withHindsight(command, options, FLAGS, async (memory) => {
          const request = defined({ group, agent_ids: agents, reason: options.reason });
          const result =
            action === "grant" ? await memory.grant(request) : await memory.revoke(request);
          printResult(result, options, () => groupText(result));
        });
      });
  }

  share
    .command("groups")
    .description("list the groups and their members")
    .argument("[group]", "only this group")
    .option("--json", "print the result as JSON")
    .action(async (group: string | undefined, options: ShareOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.groups(defined({ group }));
        printResult(result, options, () =>
          result.groups.length === 0 ? "no groups" : result.groups.map(groupText).join("\n"),
        );
      });
    });

  share
    .command("trust")
    .description("set how far a source is trusted: blocked | low | normal | high")
    .argument("<source>", "a source as writers name it in --source")
    .argument("<level>", "blocked | low | normal | high")
    .option("--note <text>", "why this level")
    .option("--json", "print the result as JSON")
    .action(async (source: string, trust: string, options: ShareOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.setTrust(defined({ source, trust, note: options.note }));
        printResult(result, options, () => `${result.source}: ${result.trust}`);
      });
    });

  share
    .command("sources")
    .description("list the sources with a trust level, and the default for the others")
    .option("--json", "print the result as JSON")
    .action(async (options: ShareOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.sources();
        printResult(result, options, () =>
          [
            ...result.sources.map(
              (entry) => `${entry.source}: ${entry.trust}${entry.note ? `  (${entry.note})` : ""}`,
            ),
            `any other source: ${result.default_trust}`,
          ].join("\n"),
        );
      });
    });

  share
    .command("pending")
    .description("list quarantined shared memories waiting for review, oldest first")
    .option("--group <group>", "only those shared with this group")
    .option("--limit <n>", "at most this many (default 100)")
    .option("--json", "print the result as JSON")
    .action(async (options: ShareOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.quarantined(
          defined({ group: options.group, limit: numeric(options.limit) }),
        );
        printResult(result, options, () =>
          result.memories.length === 0
            ? "nothing quarantined"
            : result.memories
                .map(
                  (m) =>
                    `${m.id}  ${m.shared_group}  from ${m.source} (${m.source_trust})${m.agent_id ? ` by ${m.agent_id}` : ""}\n  ${m.key_text} — ${m.value_text}`,
                )
                .join("\n"),
        );
      });
    });

  for (const decision of ["confirm", "reject"] as const) {
    share
      .command(decision)
      .description(
        decision === "confirm"
          ? "release a quarantined shared memory to its group"
          : "reject a shared memory: nobody recalls it (it is archived, its history kept)",
      )
      .argument("<id>", "memory id")
      .option("--by <reviewer>", "who decided")
      .option("--reason <text>", "why, kept in its history and the audit log")
      .option("--json", "print the result as JSON")
      .action(async (id: string, options: ShareOptions, command: Command) => {
        await withHindsight(command, options, FLAGS, async (memory) => {
          const result = await memory.review(
            defined({ memory_id: id, decision, reviewer: options.by, reason: options.reason }),
          );
          printResult(
            result,
            options,
            () =>
              `${result.id}: ${result.review_status} by ${result.reviewed_by}${result.changed ? "" : " (already)"}`,
          );
        });
      });
  }
}
