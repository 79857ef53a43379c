/**
 * Time ranges as written by people and models: `2024-01-01~2024-01-31`. Either side may be a
 * date (a whole day, UTC) or an ISO date-time, and either side may be left open.
 */
export interface TimeRange {
  from?: Date;
  to?: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/i;
const DAY_MS = 86_400_000;
/** Years PostgreSQL and ISO 8601 both write as four digits: year 0 and 10000 are refused. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Parses one ISO date or date-time; `undefined` when it is not one or not a real date. Every
 * field is checked as written, offset or not: JavaScript silently rolls 2024-06-31 over to
 * 1 July, and a stored date must be the one that was given.
 */
export function parseInstant(text: string): Date | undefined {
  const value = text.trim();
  const match = INSTANT.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  if (year! < FIRST_YEAR || year! > LAST_YEAR || month! < 1 || month! > 12) return undefined;
  if (day! < 1 || day! > daysIn(year!, month!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = match[8];
  if (zone && zone.toUpperCase() !== "Z" && (Number(match[10]) > 23 || Number(match[11]) > 59)) {
    return undefined;
  }
  // A date-time without an offset is read as UTC, so results do not depend on the host zone.
  const iso = DATE_ONLY.test(value) || zone ? value : `${value}Z`;
  const date = new Date(iso.replace(" ", "T"));
  if (Number.isNaN(date.getTime())) return undefined;
  // The offset may carry an edge date over a year boundary (9999-12-31T23:00-05:00).
  const utcYear = date.getUTCFullYear();
  if (utcYear < FIRST_YEAR || utcYear > LAST_YEAR) return undefined;
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
