/**
 * What the CLI prints. Results go to stdout (exactly one JSON document with --json); errors and
 * logs go to stderr.
 */
import { ErrorCode, HindsightError, isHindsightError } from "../core/errors.js";
import { exitCodeFor } from "./exit-codes.js";

export interface OutputOptions {
  json?: boolean;
}

export function printResult(result: unknown, options: OutputOptions, human: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${human()}\n`);
}

/** Field names of the shared schemas, as the CLI user typed them. */
export type FlagNames = Record<string, string>;

function describeField(field: string | undefined, flags: FlagNames): string | undefined {
  if (field === undefined) return undefined;
  const root = field.split(".")[0] ?? field;
  const flag = flags[root];
  return flag ? `${flag} (${field})` : field;
}

/** Prints an error on stderr and returns the exit code for it. */
export function reportError(error: unknown, options: OutputOptions, flags: FlagNames = {}): number {
  const known = isHindsightError(error)
    ? error
    : new HindsightError(ErrorCode.INTERNAL, "internal error", { cause: error });
  if (!isHindsightError(error)) {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  }
  const where = describeField(known.field, flags);
  if (options.json) {
    process.stderr.write(
      `${JSON.stringify({ error: { ...known.toJSON(), ...(where ? { flag: where } : {}) } })}\n`,
    );
  } else {
    const message =
      where && known.field && known.message.startsWith(`${known.field}:`)
        ? `${where}${known.message.slice(known.field.length)}`
        : known.message;
    process.stderr.write(`hindsight: ${message} [${known.code}]\n`);
  }
  return exitCodeFor(known.code);
}
