/**
 * Time ranges as written by people and models: `2024-01-01~2024-01-31`. Either side may be a
 * date (a whole day, UTC) or an ISO date-time, and either side may be left open.
 */
export interface TimeRange {
  from?: Date;
  to?: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DAY_MS = 86_400_000;

/** Parses one ISO date or date-time; `undefined` when it is not one or not a real date. */
export function parseInstant(text: string): Date | undefined {
  const value = text.trim();
  if (!DATE_ONLY.test(value) && !DATE_TIME.test(value)) return undefined;
  // A date-time without an offset is read as UTC, so results do not depend on the host zone.
  const iso = DATE_ONLY.test(value) || /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  const date = new Date(iso.replace(" ", "T"));
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject dates JavaScript silently rolls over (2024-02-31 → March 2).
  if (date.toISOString().slice(0, 10) !== value.slice(0, 10) && !/[+-]\d{2}:?\d{2}$/.test(value)) {
    return undefined;
  }
  return date;
}

/** Returns the range, or an error message saying what is wrong with it. */
export function parseTimeRange(text: string): TimeRange | string {
  const parts = text.split("~");
  if (parts.length !== 2) return "expected <from>~<to>, e.g. 2024-01-01~2024-01-31";
  const [fromText = "", toText = ""] = parts.map((part) => part.trim());
  if (!fromText && !toText) return "at least one side of the range must be given";
  const range: TimeRange = {};
  if (fromText) {
    const from = parseInstant(fromText);
    if (!from) return `'${fromText}' is not an ISO date (YYYY-MM-DD) or date-time`;
    range.from = from;
  }
  if (toText) {
    const to = parseInstant(toText);
    if (!to) return `'${toText}' is not an ISO date (YYYY-MM-DD) or date-time`;
    // A bare end date includes that whole day.
    range.to = DATE_ONLY.test(toText) ? new Date(to.getTime() + DAY_MS - 1) : to;
  }
  if (range.from && range.to && range.from > range.to) return "the start is after the end";
  return range;
}
