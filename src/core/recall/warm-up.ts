/**
 * Recalls nobody asked for, run by a process that will serve many (a server, `mcp`, a warm
 * owner) as soon as its store is open. A new process's first recalls are slow while the
 * database plans its statements and V8 optimises the embedded database's WebAssembly and the
 * ranking's code: on a 10 000-memory PGlite store the first took 120–170 ms, the next four
 * 30–60 ms, against ~5 ms once warm (docs/benchmarks.md). An agent's session often asks only
 * a few: they would all be slow. These run first, read-only, one at a time.
 */
import type { Logger } from "../ports.js";
import type { RecallOptions } from "./recall.js";

/**
 * Both languages, a question, keywords, a period and a query of two questions: each takes a
 * path of its own through recall (segmentation, time expressions, interleaved rankings).
 * Eight: V8 optimises code once it has run a while, and the database plans a prepared
 * statement afresh for its first five runs.
 */
export const WARM_UP_QUERIES: readonly string[] = [
  "what went wrong with the deploy last week?",
  "用户喜欢什么样的回复？",
  "database migration timeout",
  "上周三的会议纪要",
  "how do we roll back a release? and who approves it?",
  "缓存配置错误",
  "billing refund failed for a customer",
  "preferences of the user",
];

type RecallCall = (input: unknown, options: RecallOptions) => Promise<unknown>;

/**
 * Runs the warm-up recalls in turn until `stopped()` says the process is closing. A recall
 * asked for meanwhile waits for one warm-up recall at most. Access is not recorded: nothing is
 * written. A failure ends the warm-up quietly; the next real recall reports it.
 */
export async function warmUpRecall(
  recall: RecallCall,
  stopped: () => boolean,
  logger: Logger,
): Promise<void> {
  const start = performance.now();
  let done = 0;
  for (const [index, query_text] of WARM_UP_QUERIES.entries()) {
    if (stopped()) break;
    // The default layer and both: each layer set is a statement of its own.
    const memory_layer = index % 2 === 0 ? "episodic" : "all";
    try {
      await recall({ query_text, memory_layer, top_k: 5 }, { recordAccess: false });
    } catch (error) {
      logger.debug("warm-up recall failed", { error: String(error) });
      return;
    }
    done++;
  }
  logger.debug(`warm-up: ${done} recalls in ${Math.round(performance.now() - start)} ms`);
}
