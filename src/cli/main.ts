#!/usr/bin/env node
/**
 * The `hindsight` command line: a thin layer over the library.
 */
import { Command, CommanderError } from "commander";
import { registerAudit } from "./commands/audit.js";
import { registerConsolidate } from "./commands/consolidate.js";
import { registerEval } from "./commands/eval.js";
import { registerFeedback } from "./commands/feedback.js";
import { registerFetchModel } from "./commands/fetch-model.js";
import { registerForget } from "./commands/forget.js";
import { registerHistory } from "./commands/history.js";
import { registerMaintain } from "./commands/maintain.js";
import { registerMcp } from "./commands/mcp.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerRecall } from "./commands/recall.js";
import { registerReembed } from "./commands/reembed.js";
import { registerRestore } from "./commands/restore.js";
import { registerServe } from "./commands/serve.js";
import { registerShare } from "./commands/share.js";
import { registerStats } from "./commands/stats.js";
import { registerStore } from "./commands/store.js";
import { registerStoreFact } from "./commands/store-fact.js";
import { registerSummarize } from "./commands/summarize.js";
import { registerWorking } from "./commands/working.js";
import { exitCodeFor } from "./exit-codes.js";
import { VERSION } from "./version.js";

const program = new Command()
  .name("hindsight")
  .description("Long-term memory for LLM agents: store, recall and forget what they learn.")
  .version(VERSION)
  .option("--database-url <url>", "PostgreSQL connection string (env DATABASE_URL)")
  .option("--data-dir <dir>", "embedded store directory (env HINDSIGHT_DATA_DIR)")
  .option("--tenant <name>", "whose memories: a tenant of the API-key file (env HINDSIGHT_TENANT)")
  .option("--log-level <level>", "debug | info | warn | error | silent (env HINDSIGHT_LOG_LEVEL)")
  .showHelpAfterError()
  .exitOverride();

for (const register of [
  registerStore,
  registerStoreFact,
  registerRecall,
  registerForget,
  registerAudit,
  registerRestore,
  registerFeedback,
  registerHistory,
  registerMaintain,
  registerConsolidate,
  registerSummarize,
  registerStats,
  registerMigrate,
  registerReembed,
  registerFetchModel,
  registerMcp,
  registerServe,
  registerEval,
  registerWorking,
  registerShare,
]) {
  register(program);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage mistakes are invalid input.
    process.exitCode = error.exitCode === 0 ? 0 : exitCodeFor("INVALID_INPUT");
  } else {
    throw error;
  }
}
