/**
 * `hindsight export` and `hindsight import`: files in, files out, over the exportMemories and
 * importMemories operations a page or a batch at a time. An import reads and checks the whole
 * file first — every line, naming the line and the field — so a bad file writes nothing.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { ErrorCode, HindsightError, invalidInput } from "../../core/errors.js";
import {
  FOREIGN_FORMATS,
  type ForeignFormat,
  foreignItems,
  fromForeign,
} from "../../core/transfer/foreign.js";
import { ExportHeader, type ExportRecord } from "../../core/transfer/format.js";
import { importBatches, parseRecord, TRANSFER_LIMITS } from "../../core/transfer/transfer.js";
import { validate } from "../../core/validate.js";
import { createProgress } from "../../eval/progress.js";
import { type GlobalFlags, logLevel, withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { numeric, readStdin } from "../parse.js";

const FORMATS = ["hindsight", ...FOREIGN_FORMATS] as const;
type Format = (typeof FORMATS)[number];

interface ExportOptions {
  out?: string;
  withVectors?: boolean;
  json?: boolean;
}

interface ImportOptions {
  from?: string;
  batchSize?: string;
  json?: boolean;
}

/** An error about a line of the file: `line 12: outcome: …`, naming the field too. */
function atLine(line: number, error: unknown): unknown {
  if (error instanceof HindsightError && error.code === ErrorCode.INVALID_INPUT) {
    const field = error.field?.replace(/^record\.?/, "") || undefined;
    return new HindsightError(
      ErrorCode.INVALID_INPUT,
      `line ${line}: ${error.message.replace(/^record\.?/, "")}`,
      {
        ...(field ? { field } : {}),
      },
    );
  }
  return error;
}

/** The records of a file in its format, all checked before any is written. */
function readRecords(
  content: string,
  format: Format,
  now: Date,
): { header?: ExportHeader; records: ExportRecord[] } {
  if (format !== "hindsight") {
    return {
      records: foreignItems(content).flatMap(({ line, value }) => {
        try {
          return fromForeign(format as ForeignFormat, value, now);
        } catch (error) {
          throw atLine(line, error);
        }
      }),
    };
  }
  const lines = content.split("\n");
  let header: ExportHeader | undefined;
  const records: ExportRecord[] = [];
  lines.forEach((text, index) => {
    if (text.trim() === "") return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidInput(`line ${line}`, "is not JSON");
    }
    try {
      if (header === undefined) {
        header = validate(ExportHeader, value);
      } else {
        records.push(parseRecord(value, "record"));
      }
    } catch (error) {
      throw atLine(line, error);
    }
  });
  if (header === undefined) throw invalidInput("file", "is empty: no export header");
  return { header, records };
}

export function registerTransfer(program: Command): void {
  program
    .command("export")
    .description(
      "export every memory (both layers, with history, provenance and statistics), the groups and the source trust, as JSON Lines",
    )
    .option("--out <file>", "write to this file instead of standard output")
    .option(
      "--with-vectors",
      "include each memory's vector (otherwise the importing store embeds again)",
    )
    .option("--json", "print the summary as JSON (with --out)")
    .action(async (options: ExportOptions, command: Command) => {
      await withHindsight(
        command,
        options,
        { with_vectors: "--with-vectors" },
        async (memory, logger) => {
          const file = options.out ? createWriteStream(options.out, { mode: 0o600 }) : undefined;
          const write = async (text: string) => {
            const sink = file ?? process.stdout;
            if (!sink.write(text)) await once(sink, "drain");
          };
          let cursor: string | undefined;
          let memories = 0;
          let first = true;
          do {
            const page = await memory.exportMemories({
              limit: 500,
              with_vectors: options.withVectors === true,
              ...(cursor ? { cursor } : {}),
            });
            if (first) await write(`${JSON.stringify(page.header)}\n`);
            first = false;
            for (const record of page.records) {
              if (record.kind === "memory") memories += 1;
              await write(`${JSON.stringify(record)}\n`);
            }
            cursor = page.next_cursor ?? undefined;
          } while (cursor);
          if (file) {
            file.end();
            await once(file, "finish");
            const result = { memories, file: options.out };
            printResult(result, options, () => `exported ${memories} memories to ${options.out}`);
          } else {
            logger.info(`exported ${memories} memories`);
          }
        },
      );
    });

  program
    .command("import <file>")
    .description(
      "import an export (or an MCP memory server's memory.json, or a mem0 export) into this store; idempotent: what it holds already is kept",
    )
    .option("--from <format>", `${FORMATS.join(" | ")} (default hindsight)`, "hindsight")
    .option(
      "--batch-size <n>",
      `records written per transaction, 1..${TRANSFER_LIMITS.importBatch} (default 500)`,
    )
    .option("--json", "print the result as JSON")
    .action(async (path: string, options: ImportOptions, command: Command) => {
      const names = { file: "<file>", from: "--from", batch_size: "--batch-size" };
      await withHindsight(command, options, names, async (memory) => {
        const format = options.from as Format;
        if (!FORMATS.includes(format)) {
          throw invalidInput("from", `must be one of ${FORMATS.join(", ")}`);
        }
        const size = numeric(options.batchSize) ?? 500;
        if (
          typeof size !== "number" ||
          !Number.isInteger(size) ||
          size < 1 ||
          size > TRANSFER_LIMITS.importBatch
        ) {
          throw invalidInput("batch_size", `must be an integer 1..${TRANSFER_LIMITS.importBatch}`);
        }
        const content =
          path === "-"
            ? await readStdin()
            : await readFile(path, "utf8").catch(() => {
                throw invalidInput("file", `cannot read ${path}`);
              });
        const { header, records } = readRecords(content, format, new Date());
        const flags = command.optsWithGlobals<GlobalFlags>();
        const progress = createProgress({
          label: "importing",
          total: records.length,
          enabled: logLevel(flags) !== "silent",
        });
        const batches = function* () {
          for (let start = 0; start < records.length; start += size) {
            yield {
              records: records.slice(start, start + size),
              ...(header ? { embedder: header.embedder } : {}),
            };
          }
        };
        // The next batch is embedded while this one is written (importBatches).
        const total = await importBatches(memory, batches(), (_, batch) =>
          progress.tick(batch.records.length),
        );
        progress.done();
        printResult(
          total,
          options,
          () =>
            `imported ${total.imported} memories, skipped ${total.skipped} already stored` +
            (total.embedded > 0 ? `, embedded ${total.embedded} again` : "") +
            (total.groups + total.trust > 0
              ? `; ${total.groups} group memberships and ${total.trust} trust settings added`
              : ""),
        );
      });
    });
}
