/**
 * What the relative phrases mean, shared by the Chinese and English rules. Every choice for an
 * ambiguous phrase is made here, once, for both languages.
 */
import {
  addMonths,
  type Clock,
  civil,
  dayNumber,
  dayPeriod,
  daysPeriod,
  HOUR_MS,
  MIN_YEAR,
  monthPeriod,
  monthStart,
  type Period,
  type Precision,
  startOfDay,
  untilToday,
  weekday,
  weekStart,
  yearPeriod,
} from "./calendar.js";
import { type Count, FEW } from "./numbers.js";

export type Unit = "hour" | "day" | "week" | "month" | "year";
export type CalendarUnit = "week" | "month" | "quarter" | "year";

/** "A few" / "几": between 2 and this many units (the past few days ≈ "recently" = 7 days). */
const FEW_MAX: Record<Unit, number> = { hour: 6, day: 7, week: 4, month: 4, year: 4 };

/** Days back from today for "recently", "最近", "lately": the last 7 days. */
export const RECENT_DAYS = 7;

const MIN_DAY = dayNumber(MIN_YEAR, 1, 1) ?? 0;

/** Today shifted by `count` units back (a day number); hours are handled by the callers. */
function back(clock: Clock, count: number, unit: Exclude<Unit, "hour">): number {
  switch (unit) {
    case "day":
      return clock.today - count;
    case "week":
      return clock.today - 7 * count;
    case "month":
      return addMonths(clock.today, -count);
    case "year":
      return addMonths(clock.today, -12 * count);
  }
}

/**
 * "3 days ago", "两周前", "a month ago": one unit's width around the point `count` units back.
 * Days are that calendar day (exact); weeks, months and years are vaguer, so the period is the
 * unit centred on the point (±3 days, ±15 days, ±6 months) and approximate. "A few X ago" spans
 * 2 to FEW_MAX units back.
 */
export function agoPeriod(clock: Clock, count: Count, unit: Unit): Period | undefined {
  if (count === FEW) {
    const oldest = agoPeriod(clock, FEW_MAX[unit], unit);
    const newest = agoPeriod(clock, 2, unit);
    if (!oldest || !newest) return undefined;
    return { from: oldest.from, to: newest.to, precision: "approximate" };
  }
  if (count < 1) return undefined;
  if (unit === "hour") {
    const point = clock.reference.getTime() - count * HOUR_MS;
    return {
      from: new Date(point - HOUR_MS),
      to: new Date(point + HOUR_MS),
      precision: "approximate",
    };
  }
  const point = back(clock, count, unit);
  if (point < MIN_DAY) return undefined;
  switch (unit) {
    case "day":
      return dayPeriod(clock, point, "exact");
    case "week":
      return daysPeriod(clock, point - 3, point + 4, "approximate");
    case "month":
      return daysPeriod(clock, point - 15, point + 16, "approximate");
    case "year":
      return daysPeriod(clock, addMonths(point, -6), addMonths(point, 6) + 1, "approximate");
  }
}

/**
 * "in the last 3 days", "最近三天", "过去一周", "近两个月": a rolling window ending now, widened to
 * whole local days so that it covers the window however it is counted (the last 3 days, asked on
 * Wednesday, are Sunday 00:00 to Wednesday 23:59). Hours stay instants ("past 24 hours").
 */
export function lastPeriod(clock: Clock, count: Count, unit: Unit): Period | undefined {
  const precision: Precision = count === FEW ? "approximate" : "exact";
  const n = count === FEW ? FEW_MAX[unit] : count;
  if (n < 1) return undefined;
  if (unit === "hour") {
    const now = clock.reference.getTime();
    return { from: new Date(now - n * HOUR_MS), to: clock.reference, precision };
  }
  const start = back(clock, n, unit);
  return start < MIN_DAY ? undefined : untilToday(clock, start, precision);
}

/** "recently", "lately", "最近", "近期", "这几天": the last 7 days, approximate. */
export function recentPeriod(clock: Clock): Period {
  return { ...untilToday(clock, clock.today - RECENT_DAYS, "approximate"), recency: true };
}

/** A day relative to today (昨天 = −1), exact. */
export function relativeDay(clock: Clock, offset: number): Period {
  return dayPeriod(clock, clock.today + offset);
}

/** Calendar weeks, months, quarters, years relative to the current one (上周 = week −1). */
export function calendarPeriod(clock: Clock, unit: CalendarUnit, offset: number): Period {
  const { year, month } = civil(clock.today);
  switch (unit) {
    case "week": {
      const start = weekStart(clock.today, clock.weekStartsOn) + 7 * offset;
      return daysPeriod(clock, start, start + 7, "exact");
    }
    case "month":
      return monthPeriod(clock, year, month + offset);
    case "quarter": {
      const first = Math.floor((month - 1) / 3) * 3 + 1 + 3 * offset;
      return daysPeriod(clock, monthStart(year, first), monthStart(year, first + 3), "exact");
    }
    case "year":
      return yearPeriod(clock, year + offset);
  }
}

/** "earlier this week / month / year": from the period's start to the end of today, approximate. */
export function earlierThis(clock: Clock, unit: "week" | "month" | "year"): Period {
  const { year, month } = civil(clock.today);
  const start =
    unit === "week"
      ? weekStart(clock.today, clock.weekStartsOn)
      : monthStart(year, unit === "month" ? month : 1);
  return untilToday(clock, start, "approximate");
}

/** Quarter `quarter` (1-4) of a year. */
export function quarterPeriod(clock: Clock, year: number, quarter: number): Period | undefined {
  if (quarter < 1 || quarter > 4 || dayNumber(year, 1, 1) === undefined) return undefined;
  const first = (quarter - 1) * 3 + 1;
  return daysPeriod(clock, monthStart(year, first), monthStart(year, first + 3), "exact");
}

/** First (1) or second (2) half of a year: 上半年 / 下半年. */
export function halfYearPeriod(clock: Clock, year: number, half: 1 | 2): Period | undefined {
  if (dayNumber(year, 1, 1) === undefined) return undefined;
  const first = half === 1 ? 1 : 7;
  return daysPeriod(clock, monthStart(year, first), monthStart(year, first + 6), "exact");
}

// ---------------------------------------------------------------------------------------------
// Weekdays and weekends. Weekday numbers are 0 = Sunday … 6 = Saturday.

/**
 * "周三", "on Wednesday", "last Wednesday": the most recent one strictly before today, so 1 to 7
 * days back (asked on a Wednesday it is a week ago — today would have been "today").
 */
export function recentWeekday(clock: Clock, day: number): Period {
  const back = (weekday(clock.today) - day + 7) % 7 || 7;
  return { ...dayPeriod(clock, clock.today - back), movableDay: clock.today - back };
}

/** "上周三" (weekOffset −1), "这周三" (0), "下周三" (1): that weekday of a calendar week. */
export function weekdayOfWeek(clock: Clock, day: number, weekOffset: number): Period {
  const start = weekStart(clock.today, clock.weekStartsOn) + 7 * weekOffset;
  return dayPeriod(clock, start + ((day - clock.weekStartsOn + 7) % 7));
}

/**
 * Weekends are Saturday + Sunday whatever the week start. Offset 0 is the current weekend when
 * today is Saturday or Sunday, else the coming one; −1 ("last weekend", "上周末") the one before.
 * That is "the previous week's weekend" for weeks starting on Monday.
 */
export function weekendPeriod(clock: Clock, offset: number): Period {
  const today = weekday(clock.today);
  const thisSaturday = today === 0 ? clock.today - 1 : clock.today + (6 - today);
  const saturday = thisSaturday + 7 * offset;
  return daysPeriod(clock, saturday, saturday + 2, "exact");
}

/** "over the weekend": the most recent weekend that has begun (the current one on Sat/Sun). */
export function pastWeekend(clock: Clock): Period {
  const today = weekday(clock.today);
  return weekendPeriod(clock, today === 6 || today === 0 ? 0 : -1);
}

// ---------------------------------------------------------------------------------------------
// Months and dates without a year.

/** The year of the most recent `month` no later than the current month ("5月", "in May"). */
export function recentMonthYear(clock: Clock, month: number): number {
  const now = civil(clock.today);
  return month <= now.month ? now.year : now.year - 1;
}

/** "last May": the most recent May strictly before the current month. */
export function previousMonthYear(clock: Clock, month: number): number {
  const now = civil(clock.today);
  return month < now.month ? now.year : now.year - 1;
}

/** "next May": the first May strictly after the current month. */
export function nextMonthYear(clock: Clock, month: number): number {
  const now = civil(clock.today);
  return month > now.month ? now.year : now.year + 1;
}

/**
 * "5月8日", "May 8": the most recent such date no later than today (today included: people do
 * name today's date). February 29 goes back to the last leap year.
 */
export function recentDate(clock: Clock, month: number, day: number): number | undefined {
  const { year } = civil(clock.today);
  for (let candidate = year; candidate >= year - 8; candidate--) {
    const date = dayNumber(candidate, month, day);
    if (date !== undefined && date <= clock.today) return date;
  }
  return undefined;
}

/**
 * "since last week", "上周以来", "今年以来": from the start of the period to the end of today (a
 * period that has not begun yet keeps its own end).
 */
export function sincePeriod(clock: Clock, start: Period): Period {
  const endOfToday = startOfDay(clock.today + 1, clock.timeZone) - 1;
  return {
    from: start.from,
    to: start.from.getTime() <= endOfToday ? new Date(endOfToday) : start.to,
    precision: start.precision,
  };
}
