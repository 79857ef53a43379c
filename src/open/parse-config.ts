import { HindsightConfig, type HindsightConfigInput } from "../config/schema.js";
import { ErrorCode, HindsightError } from "../core/errors.js";

/** Validates a configuration; the first bad field becomes CONFIG_INVALID naming it. */
export function parseConfig(input: HindsightConfigInput): Readonly<HindsightConfig> {
  const result = HindsightConfig.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || "config";
    throw new HindsightError(ErrorCode.CONFIG_INVALID, `${field}: ${issue?.message}`, { field });
  }
  return Object.freeze(result.data);
}
