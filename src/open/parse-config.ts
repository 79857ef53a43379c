import { HindsightConfig, type HindsightConfigInput } from "../config/schema.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import { missing } from "../core/validate.js";

/** Validates a configuration; the first bad field becomes CONFIG_INVALID naming it. */
export function parseConfig(input: HindsightConfigInput): Readonly<HindsightConfig> {
  const result = HindsightConfig.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || "config";
    const message = (issue && missing(issue, input)) ?? issue?.message;
    throw new HindsightError(ErrorCode.CONFIG_INVALID, `${field}: ${message}`, { field });
  }
  return Object.freeze(result.data);
}
