/**
 * The `hindsight` command line: a thin layer over the library.
 */
import { Command, CommanderError } from "commander";
import { registerEval } from "./commands/eval.js";
import { registerFetchModel } from "./commands/fetch-model.js";
import { registerMcp } from "./commands/mcp.js";
import { registerOperations } from "./commands/operations.js";
import { registerReembed } from "./commands/reembed.js";
import { registerServe } from "./commands/serve.js";
import { registerTransfer } from "./commands/transfer.js";
import { registerWarm } from "./commands/warm.js";
import { exitCodeFor } from "./exit-codes.js";
import { restoreProcessName } from "./process-name.js";
import { VERSION } from "./version.js";

restoreProcessName();

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
  registerOperations,
  registerTransfer,
  registerReembed,
  registerFetchModel,
  registerMcp,
  registerServe,
  registerWarm,
  registerEval,
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
