/**
 * `hindsight eval`: retrieval quality on labelled data. Every bank is a fresh in-memory store
 * with the configured embedder (HINDSIGHT_EMBEDDER…); DATABASE_URL and --data-dir are not
 * used. Results go to stdout, progress and logs to stderr.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { Command } from "commander";
import { stderrLogger } from "../../adapters/logger.js";
import { configFromEnv } from "../../config/env.js";
import { invalidInput } from "../../core/errors.js";
import type { Logger } from "../../core/ports.js";
import type { EvalRuntime } from "../../eval/banks.js";
import type { LocomoReport } from "../../eval/locomo.js";
import type { MemdailyReport } from "../../eval/memdaily.js";
import {
  CONTEXT_TURNS,
  type LocomoReferenceTime,
  MEMDAILY_REFERENCE_TIMES,
  type MemdailyReferenceTime,
  REFERENCE_TIMES,
} from "../../eval/options.js";
import type { createProgress } from "../../eval/progress.js";
import type { SetReport } from "../../eval/set.js";
import { type GlobalFlags, logLevel } from "../context.js";
import { printResult, reportError } from "../output.js";

const FLAGS = {
  data: "--data",
  k: "--k",
  limit_conversations: "--limit-conversations",
  conversations: "--conversations",
  files: "--files",
  context_turns: "--context-turns",
  limit_trajectories: "--limit-trajectories",
  distractors: "--distractors",
  reference_time: "--reference-time",
  details: "--details",
  log_level: "--log-level",
};

interface CommonOptions {
  data: string;
  embeddingCache?: string;
  json?: boolean;
  progress?: boolean;
  details?: string;
}

interface LocomoOptions extends CommonOptions {
  k: string;
  limitConversations?: string;
  conversations?: string;
  contextTurns: string;
  referenceTime: string;
  freshBanks?: boolean;
}

interface MemdailyOptions extends CommonOptions {
  limitTrajectories?: string;
  distractors?: string;
  files?: string;
  referenceTime: string;
  freshBanks?: boolean;
}

function positiveInteger(field: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
    throw invalidInput(field, `'${value}' is not a whole number of at least 1`);
  }
  return number;
}

/**
 * "1-3" or "4,5" (1-based, as the data lists them) → the chosen positions, for evaluating a
 * tuning split and a held-out split of the same file separately.
 */
function positions(field: string, value: string | undefined): Set<number> | undefined {
  if (value === undefined) return undefined;
  const chosen = new Set<number>();
  for (const part of value.split(",")) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const from = Number(match?.[1]);
    const to = Number(match?.[2] ?? match?.[1]);
    if (!match || from < 1 || to < from) {
      throw invalidInput(field, `'${part.trim()}' is not a position (1, 2, …) or a range (1-3)`);
    }
    for (let position = from; position <= to; position++) chosen.add(position);
  }
  return chosen;
}

function wholeNumber(field: string, value: string): number {
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number)) {
    throw invalidInput(field, `'${value}' is not a whole number`);
  }
  return number;
}

function choice<T extends string>(field: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) {
    throw invalidInput(field, `'${value}' is not one of ${choices.join(", ")}`);
  }
  return value as T;
}

/**
 * A JSON-lines file of per-question records, for looking at failures. Opened before the
 * evaluation starts, so a path that cannot be written fails at once.
 */
async function openDetails(path: string | undefined): Promise<{
  write: (record: unknown) => void;
  close: () => Promise<void>;
}> {
  if (path === undefined) return { write: () => {}, close: async () => {} };
  const cannotWrite = (error: Error) =>
    invalidInput(
      "details",
      `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
    );
  const stream: WriteStream = createWriteStream(path, { encoding: "utf8" });
  let failure: Error | undefined;
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (error) => reject(cannotWrite(error)));
  });
  stream.on("error", (error) => {
    failure = error;
  });
  return {
    write: (record) => {
      stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () =>
      new Promise((resolve, reject) => {
        stream.end(() => (failure ? reject(cannotWrite(failure)) : resolve()));
      }),
  };
}

/** Runs `run` with a per-question writer to `path` (none without one), closing it after. */
async function withDetails<T>(
  path: string | undefined,
  run: (write: (record: unknown) => void) => Promise<T>,
): Promise<T> {
  const details = await openDetails(path);
  try {
    return await run(details.write);
  } finally {
    await details.close();
  }
}

/** The runners, loaded when an evaluation runs (they open the service, which a plain
 * `hindsight --help` must not load). */
async function loadRunners() {
  const [banks, locomo, memdaily, set, metrics, progress] = await Promise.all([
    import("../../eval/banks.js"),
    import("../../eval/locomo.js"),
    import("../../eval/memdaily.js"),
    import("../../eval/set.js"),
    import("../../eval/metrics.js"),
    import("../../eval/progress.js"),
  ]);
  return { ...banks, ...locomo, ...memdaily, ...set, ...metrics, ...progress };
}
type Runners = Awaited<ReturnType<typeof loadRunners>>;

/**
 * Runs an evaluation: loads the embedder once, reports errors on stderr with an exit code,
 * and always releases the embedder.
 */
async function runEval(
  command: Command,
  options: CommonOptions,
  body: (context: {
    runtime: EvalRuntime;
    logger: Logger;
    progress: (label: string) => (total: number) => ReturnType<typeof createProgress>;
    lib: Runners;
  }) => Promise<void>,
): Promise<void> {
  let runtime: EvalRuntime | undefined;
  try {
    const flags = command.optsWithGlobals<GlobalFlags>();
    const level = logLevel(flags);
    const logger = stderrLogger(level);
    const input = configFromEnv(process.env, flags);
    if (input.databaseUrl) {
      logger.warn("eval does not use PostgreSQL: every bank is a fresh in-memory store");
    }
    const lib = await loadRunners();
    runtime = await lib.openEvalRuntime(input, logger, {
      ...(options.embeddingCache ? { embeddingCache: options.embeddingCache } : {}),
    });
    logger.info(`evaluating with embedder ${runtime.embedder.id}, one in-memory store per bank`);
    const showProgress = options.progress !== false && level !== "silent";
    await body({
      runtime,
      logger,
      progress: (label) => (total) => lib.createProgress({ label, total, enabled: showProgress }),
      lib,
    });
  } catch (error) {
    process.exitCode = reportError(error, options, FLAGS);
  } finally {
    await runtime?.close().catch((error: unknown) => {
      process.exitCode = reportError(error, options);
    });
  }
}

function warnReferenceTime(lib: Runners, logger: Logger, mode: string): void {
  if (mode !== "none" && !lib.recallSupportsQueryTime()) {
    logger.warn(
      `--reference-time ${mode}: recall takes no query_time yet, so questions are recalled without one`,
    );
  }
}

function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? "").length)),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join("  "),
    )
    .join("\n");
}

const fixed = (value: number | undefined) => (value === undefined ? "" : value.toFixed(3));

const CATEGORY_NAMES: Record<string, string> = {
  "1": "1 multi-hop",
  "2": "2 temporal",
  "3": "3 open-domain",
  "4": "4 single-hop",
  "5": "5 adversarial",
};

function describeLocomo(report: LocomoReport): string {
  const metrics = Object.keys(report.overall);
  const rows = Object.entries(report.by_category).map(([category, values]) => [
    CATEGORY_NAMES[category] ?? category,
    values.questions ?? 0,
    ...metrics.map((metric) => fixed(values[metric])),
  ]);
  rows.push(["all", report.questions, ...metrics.map((metric) => fixed(report.overall[metric]))]);
  return [
    `LoCoMo retrieval: ${report.questions} questions over ${report.turns} turns, embedder ${report.embedder}, ${report.seconds} s`,
    table(["category", "questions", ...metrics], rows),
    `recall latency p50 ${report.recall_ms.p50} ms, p99 ${report.recall_ms.p99} ms`,
  ].join("\n");
}

function describeMemdaily(report: MemdailyReport): string {
  const metrics = Object.keys(report.overall);
  const rows = Object.entries(report.by_file).map(([file, values]) => [
    file,
    values.questions ?? 0,
    ...metrics.map((metric) => fixed(values[metric])),
  ]);
  rows.push(["all", report.questions, ...metrics.map((metric) => fixed(report.overall[metric]))]);
  return [
    `MemDaily retrieval: ${report.questions} questions over ${report.messages} messages, embedder ${report.embedder}, ${report.seconds} s`,
    table(["file", "questions", ...metrics], rows),
    `recall latency p50 ${report.recall_ms.p50} ms, p99 ${report.recall_ms.p99} ms`,
  ].join("\n");
}

function describeSet(report: SetReport): string {
  const { overall } = report;
  const lines = [
    `${report.queries} queries: R@1 ${fixed(overall["R@1"])}, R@5 ${fixed(overall["R@5"])}, MRR ${fixed(overall.MRR)}`,
  ];
  if (report.failures.length === 0) {
    lines.push("every query found all its expected memories in the top 5");
  } else {
    lines.push(`${report.failures.length} queries missed an expected memory in the top 5:`);
    for (const failure of report.failures) {
      lines.push(
        `  ${failure.query_text}\n    expected ${failure.expected.join(", ")}; got ${failure.got.join(", ") || "nothing"}`,
      );
    }
  }
  return lines.join("\n");
}

export function registerEval(program: Command): void {
  const evaluate = program
    .command("eval")
    .description(
      "measure how well recall finds labelled memories (LoCoMo, MemDaily, your own set)",
    );

  evaluate
    .command("locomo")
    .description("recall@k over LoCoMo conversations, one memory bank per conversation")
    .requiredOption("--data <file>", "a JSON file in the LoCoMo-10 format")
    .option("--k <list>", "recall cut-offs", "1,5,10,25")
    .option("--limit-conversations <n>", "only the first n conversations")
    .option("--conversations <list>", "only these conversations, by position: 1-3 or 4,5")
    .option(
      "--context-turns <n>",
      "store each turn with the n turns before it in its session as context (0: none)",
      String(CONTEXT_TURNS),
    )
    .option(
      "--reference-time <mode>",
      "recall as of the last session (when recall takes a query_time): last-session | none",
      "none",
    )
    .option("--details <file>", "write one JSON line per question (retrieved dia_ids, recall)")
    .option("--fresh-banks", "open a new database for every bank (slower; for checking)")
    .option(
      "--embedding-cache <file>",
      "keep embeddings in this file and reuse them on the next run (same embedder)",
    )
    .option("--no-progress", "no progress bar on stderr")
    .option("--json", "print the result as JSON")
    .action(async (options: LocomoOptions, command: Command) => {
      await runEval(command, options, async ({ runtime, logger, progress, lib }) => {
        const ks = lib.parseKs(options.k);
        if (typeof ks === "string") throw invalidInput("k", ks);
        const limit = positiveInteger("limit_conversations", options.limitConversations);
        const contextTurns = wholeNumber("context_turns", options.contextTurns);
        const referenceTime = choice<LocomoReferenceTime>(
          "reference_time",
          options.referenceTime,
          REFERENCE_TIMES,
        );
        warnReferenceTime(lib, logger, referenceTime);
        const only = positions("conversations", options.conversations);
        const conversations = (await lib.loadLocomo(options.data)).filter(
          (_, index) => only === undefined || only.has(index + 1),
        );
        const undated = conversations.reduce((sum, c) => sum + c.undated_sessions, 0);
        if (undated > 0) {
          logger.warn(
            `${undated} sessions have no readable date; their turns take the previous session's date`,
          );
        }
        const report = await withDetails(options.details, (onQuestion) =>
          lib.runLocomo(conversations, {
            runtime,
            ks,
            referenceTime,
            contextTurns,
            freshBanks: options.freshBanks === true,
            progress: progress("eval locomo"),
            onQuestion,
            ...(limit === undefined ? {} : { limitConversations: limit }),
          }),
        );
        printResult(report, options, () => describeLocomo(report));
      });
    });

  evaluate
    .command("memdaily")
    .description("R@1, R@5 and MRR over MemDaily trajectories, one memory bank per trajectory")
    .requiredOption("--data <path>", "a MemDaily JSON file, or a directory of them")
    .option("--limit-trajectories <n>", "only the first n trajectories of each file")
    .option("--files <prefixes>", "only the files whose names start so: 01,02 or 03")
    .option(
      "--distractors <n>",
      "mix n messages of other trajectories into each bank (seeded; MemDaily-100 style)",
    )
    .option(
      "--reference-time <mode>",
      "recall as of the question's time (when recall takes a query_time): question | none",
      "none",
    )
    .option("--details <file>", "write one JSON line per question (retrieved mids, scores)")
    .option("--fresh-banks", "open a new database for every bank (slower; for checking)")
    .option(
      "--embedding-cache <file>",
      "keep embeddings in this file and reuse them on the next run (same embedder)",
    )
    .option("--no-progress", "no progress bar on stderr")
    .option("--json", "print the result as JSON")
    .action(async (options: MemdailyOptions, command: Command) => {
      await runEval(command, options, async ({ runtime, logger, progress, lib }) => {
        const limit = positiveInteger("limit_trajectories", options.limitTrajectories);
        const distractors = positiveInteger("distractors", options.distractors);
        const referenceTime = choice<MemdailyReferenceTime>(
          "reference_time",
          options.referenceTime,
          MEMDAILY_REFERENCE_TIMES,
        );
        warnReferenceTime(lib, logger, referenceTime);
        const prefixes = options.files?.split(",").map((prefix) => prefix.trim());
        const trajectories = (await lib.loadMemdaily(options.data)).filter(
          (trajectory) =>
            prefixes === undefined || prefixes.some((prefix) => trajectory.file.startsWith(prefix)),
        );
        const undated = trajectories.reduce((sum, t) => sum + t.undated_messages, 0);
        const skipped = trajectories.reduce((sum, t) => sum + t.skipped_messages, 0);
        if (undated > 0) {
          logger.warn(`${undated} messages have no readable time; they take the previous one's`);
        }
        if (skipped > 0) logger.warn(`${skipped} messages are empty and were left out`);
        const report = await withDetails(options.details, (onQuestion) =>
          lib.runMemdaily(trajectories, {
            runtime,
            referenceTime,
            freshBanks: options.freshBanks === true,
            progress: progress("eval memdaily"),
            onQuestion,
            ...(limit === undefined ? {} : { limitTrajectories: limit }),
            ...(distractors === undefined ? {} : { distractors }),
          }),
        );
        printResult(report, options, () => describeMemdaily(report));
      });
    });

  evaluate
    .command("set")
    .description("R@1, R@5 and MRR over a labelled set of your own (see docs/evaluation.md)")
    .requiredOption("--data <file>", "a JSON file: { memories: [...], queries: [...] }")
    .option(
      "--embedding-cache <file>",
      "keep embeddings in this file and reuse them on the next run (same embedder)",
    )
    .option("--no-progress", "no progress bar on stderr")
    .option("--json", "print the result as JSON")
    .action(async (options: CommonOptions, command: Command) => {
      await runEval(command, options, async ({ runtime, progress, lib }) => {
        const set = await lib.loadRegressionSet(options.data);
        const report = await lib.runRegressionSet(set, { runtime, progress: progress("eval set") });
        printResult(report, options, () => describeSet(report));
      });
    });
}
