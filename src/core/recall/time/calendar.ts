/**
 * Calendar arithmetic for time expressions. Days are counted as "civil day numbers": days since
 * 1970-01-01 on the wall calendar of the query's time zone, so that "yesterday" means the
 * previous local date and a period's bounds are local midnights, whatever the zone's offset or
 * daylight-saving rules.
 */

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export type Precision = "exact" | "approximate";

/** A resolved period: inclusive bounds. */
export interface Period {
  from: Date;
  to: Date;
  precision: Precision;
  /**
   * Set when a weekday was read as the most recent one (its civil day number), so that a range
   * can move it by a week: "周一到周五" asked on a Wednesday is last Monday to last Friday.
   */
  movableDay?: number;
  /**
   * "recently", "最近": vague, and relative to whatever else the query dates, not only to now
   * ("the cake she made recently, in May 2022" means May 2022).
   */
  recency?: true;
}

/** Everything a rule needs to know about "now". */
export interface Clock {
  reference: Date;
  timeZone: string;
  weekStartsOn: 0 | 1;
  /** The reference's civil day number in `timeZone`. */
  today: number;
}

export interface CivilDate {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
}

/** Years outside this window are not read as dates ("in 1000 requests", "2999年"). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2099;

export function makeClock(reference: Date, timeZone: string, weekStartsOn: 0 | 1): Clock {
  const { year, month, day } = civilDateAt(reference.getTime(), timeZone);
  return { reference, timeZone, weekStartsOn, today: dayNumberUnchecked(year, month, day) };
}

/** The civil day number of a date, or `undefined` when it does not exist (2月30日). */
export function dayNumber(year: number, month: number, day: number): number | undefined {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) return undefined;
  if (!Number.isInteger(month) || month < 1 || month > 12) return undefined;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return undefined;
  return dayNumberUnchecked(year, month, day);
}

function dayNumberUnchecked(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

export function civil(day: number): CivilDate {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** 0 = Sunday … 6 = Saturday (1970-01-01, day 0, was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** First day of the week containing `day`. */
export function weekStart(day: number, weekStartsOn: 0 | 1): number {
  return day - ((weekday(day) - weekStartsOn + 7) % 7);
}

/** First day of a month; `month` may overflow either way (month 0 = December of year − 1). */
export function monthStart(year: number, month: number): number {
  return dayNumberUnchecked(year, month, 1);
}

/** The same day-of-month `months` later (or earlier), clamped to the month's end (Mar 31 − 1 → Feb 29). */
export function addMonths(day: number, months: number): number {
  const { year, month, day: dom } = civil(day);
  const first = civil(monthStart(year, month + months));
  return dayNumberUnchecked(
    first.year,
    first.month,
    Math.min(dom, daysInMonth(first.year, first.month)),
  );
}

// ---------------------------------------------------------------------------------------------
// Periods

/** Whole local days `[startDay, endDay)`, i.e. from the first local midnight to just before the last. */
export function daysPeriod(
  clock: Clock,
  startDay: number,
  endDay: number,
  precision: Precision,
): Period {
  return {
    from: new Date(startOfDay(startDay, clock.timeZone)),
    to: new Date(startOfDay(endDay, clock.timeZone) - 1),
    precision,
  };
}

export function dayPeriod(clock: Clock, day: number, precision: Precision = "exact"): Period {
  return daysPeriod(clock, day, day + 1, precision);
}

export function monthPeriod(
  clock: Clock,
  year: number,
  month: number,
  precision: Precision = "exact",
): Period {
  return daysPeriod(clock, monthStart(year, month), monthStart(year, month + 1), precision);
}

export function yearPeriod(clock: Clock, year: number, precision: Precision = "exact"): Period {
  return daysPeriod(clock, monthStart(year, 1), monthStart(year + 1, 1), precision);
}

/** From the start of `startDay` to the end of today (rolling windows, "since …"). */
export function untilToday(clock: Clock, startDay: number, precision: Precision): Period {
  return daysPeriod(clock, startDay, clock.today + 1, precision);
}

// ---------------------------------------------------------------------------------------------
// Time zones, through Intl only (no dependency).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    // Throws a RangeError for an unknown zone, which is the right answer for a caller's typo.
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading at an instant, expressed as if it were UTC milliseconds. */
function wallClock(instantMs: number, timeZone: string): number {
  if (timeZone === "UTC") return instantMs;
  const parts: Record<string, number> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(new Date(instantMs))) {
    parts[type] = Number(value);
  }
  const ms = ((instantMs % 1000) + 1000) % 1000;
  return (
    Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    ) + ms
  );
}

function civilDateAt(instantMs: number, timeZone: string): CivilDate {
  return civil(Math.floor(wallClock(instantMs, timeZone) / DAY_MS));
}

/**
 * The instant a local day begins: the earliest instant whose wall clock reads that date's
 * midnight or later. Where a zone skips midnight (a daylight-saving jump at 00:00) the day
 * begins at the first existing minute; where it repeats it, at the first of the two.
 */
export function startOfDay(day: number, timeZone: string): number {
  const wall = day * DAY_MS;
  if (timeZone === "UTC") return wall;
  // The zone's offset near that midnight: one of these three is the one in force.
  const candidates = [wall - DAY_MS, wall, wall + DAY_MS]
    .map((probe) => wall - (wallClock(probe, timeZone) - probe))
    .filter((instant) => wallClock(instant, timeZone) >= wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? wall;
}
