/**
 * English time expressions, case-insensitive, matched as whole words ("maybe" holds no "may").
 * A leading preposition ("in the last 3 days", "on Wednesday") and a trailing possessive
 * ("last week's") belong to the match, so that removing it leaves clean keywords.
 */

import { MONTHS_EN } from "../../../text/calendar-words.js";
import {
  type Clock,
  civil,
  dayNumber,
  dayPeriod,
  monthPeriod,
  type Period,
  yearPeriod,
} from "./calendar.js";
import { EN_COUNT, FEW, parseEnCount } from "./numbers.js";
import {
  agoPeriod,
  type CalendarUnit,
  calendarPeriod,
  earlierThis,
  lastPeriod,
  nextMonthYear,
  pastWeekend,
  previousMonthYear,
  recentDate,
  recentMonthYear,
  recentPeriod,
  recentWeekday,
  relativeDay,
  type Unit,
  weekdayOfWeek,
  weekendPeriod,
} from "./periods.js";
import { group, type Rule, rule } from "./rule.js";

const START = "(?<![A-Za-z0-9])";
const END = "(?:['’]s)?(?![A-Za-z0-9])";
const PREP = "(?:(?<prep>in|on|at|during|over|within|from|for)\\s+)?";

/** An English rule: whole words, optional leading preposition, optional possessive. */
function en(name: string, body: string, resolve: Rule["resolve"]): Rule {
  return rule(name, `${START}${PREP}(?:${body})${END}`, resolve, "i");
}

const MONTH_ABBREVIATIONS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
/** An abbreviation may end with a dot ("Jan."); a full name may not (it would eat a full stop). */
const MONTH = `(?<month>${MONTHS_EN.join("|")}|(?:${Object.keys(MONTH_ABBREVIATIONS).join("|")})\\.?)`;

/** English weekday names, Sunday first (as `weekday` numbers them). */
export const WEEKDAYS = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
];
const WEEKDAY = `(?<weekday>${WEEKDAYS.join("|")})`;

const RELATIVE_OFFSET: Record<string, number> = {
  last: -1,
  previous: -1,
  this: 0,
  current: 0,
  next: 1,
};

/**
 * Words before a bare month or year that make it a time: "since May", "throughout 2023". "before"
 * and "after" do not: they mean an open-ended period, which is not the month itself.
 */
const CONTEXT_BEFORE = /(?:^|[^A-Za-z])(?:since|throughout|between)\s+$/i;
/** The second end of a range: "from March to May", "2022-2023", "between March and May". */
const RANGE_END_BEFORE = new RegExp(
  `(?:^|[^A-Za-z0-9])(?:${MONTHS_EN.join("|")}|${Object.keys(MONTH_ABBREVIATIONS).join("|")}|\\d{1,4})\\.?,?\\s*(?:to|until|till|through|and|-|–|~)\\s*$`,
  "i",
);

function monthNumber(text: string): number | undefined {
  const word = text.toLowerCase().replace(".", "");
  const index = MONTHS_EN.indexOf(word);
  return index >= 0 ? index + 1 : MONTH_ABBREVIATIONS[word];
}

function unitOf(text: string): Unit {
  return text.toLowerCase().replace(/s$/, "") as Unit;
}

function relativeOffset(text: string | undefined): number {
  return RELATIVE_OFFSET[(text ?? "").toLowerCase().replace(/^the\s+/, "")] ?? 0;
}

/**
 * A month name is a time only with something that says so: a year, a day number, "in"/"on"/
 * "during", "last"/"this"/"next", "early"/"mid"/"late", or "since"/"until" before it. With a day
 * number alone the verb "may" is still possible ("test 3 may fail"), so May then needs its
 * capital M ("May 8 deploy").
 */
function monthHasContext(match: RegExpExecArray): boolean {
  const prep = group(match, "prep")?.toLowerCase();
  if (
    group(match, "year") ||
    group(match, "yearRel") ||
    group(match, "rel") ||
    group(match, "part")
  ) {
    return true;
  }
  if (prep && prep !== "for" && prep !== "over" && prep !== "within") return true;
  const before = match.input.slice(0, match.index);
  if (CONTEXT_BEFORE.test(before) || RANGE_END_BEFORE.test(before)) return true;
  if (group(match, "day") === undefined) return false;
  const month = group(match, "month") ?? "";
  return month.toLowerCase() !== "may" || month.startsWith("M");
}

function monthPeriodOf(match: RegExpExecArray, clock: Clock): Period | undefined {
  if (!monthHasContext(match)) return undefined;
  const month = monthNumber(group(match, "month") ?? "");
  if (month === undefined) return undefined;
  const now = civil(clock.today);
  const yearText = group(match, "year");
  const rel = group(match, "rel")?.toLowerCase();
  const dayText = group(match, "day");
  let year: number | undefined;
  if (yearText) year = Number(yearText);
  else if (group(match, "yearRel")) year = now.year + relativeOffset(group(match, "yearRel"));
  else if (rel === "last") year = previousMonthYear(clock, month);
  else if (rel === "this") year = now.year;
  else if (rel === "next") year = nextMonthYear(clock, month);
  if (dayText !== undefined) {
    if (group(match, "part")) return undefined; // "early May 8" says two things
    const day = Number(dayText);
    const date = year === undefined ? recentDate(clock, month, day) : dayNumber(year, month, day);
    return date === undefined ? undefined : dayPeriod(clock, date);
  }
  const y = year ?? recentMonthYear(clock, month);
  if (dayNumber(y, month, 1) === undefined) return undefined;
  // "early/mid/late May" is read as the month, flagged approximate.
  return monthPeriod(clock, y, month, group(match, "part") ? "approximate" : "exact");
}

const YEAR = "(?<year>(?:19|20)\\d{2})(?![0-9]|[.,]\\d)";
const DAY_OF_MONTH = "(?<day>\\d{1,2})(?:st|nd|rd|th)?(?![0-9])";
const UNIT = "(?<unit>hour|day|week|month|year)(?<plural>s)?";

export const EN_RULES: readonly Rule[] = [
  en("en-day-before-yesterday", "(?:the\\s+)?day\\s+before\\s+yesterday", (_, clock) =>
    relativeDay(clock, -2),
  ),
  en("en-day-after-tomorrow", "(?:the\\s+)?day\\s+after\\s+tomorrow", (_, clock) =>
    relativeDay(clock, 2),
  ),
  en("en-yesterday", "yesterday(?:\\s+(?:morning|afternoon|evening))?", (_, clock) =>
    relativeDay(clock, -1),
  ),
  en(
    "en-today",
    "(?:earlier\\s+|later\\s+)?today|this\\s+(?:morning|afternoon|evening)|tonight",
    (_, clock) => relativeDay(clock, 0),
  ),
  en("en-tomorrow", "tomorrow(?:\\s+(?:morning|afternoon|evening|night))?", (_, clock) =>
    relativeDay(clock, 1),
  ),
  // Last night runs past midnight: yesterday and today, approximately.
  en("en-last-night", "last\\s+night", (_, clock) => {
    const yesterday = relativeDay(clock, -1);
    return { from: yesterday.from, to: relativeDay(clock, 0).to, precision: "approximate" };
  }),

  // last week, this month, next year, the previous quarter; "the last week" is a rolling window
  // (below), "last week" the calendar week.
  en(
    "en-calendar",
    "(?<rel>last|this|next|(?:the\\s+)?previous|(?:the\\s+)?current)\\s+(?<unit>week|month|quarter|year)",
    (match, clock) =>
      calendarPeriod(
        clock,
        (group(match, "unit") ?? "").toLowerCase() as CalendarUnit,
        relativeOffset(group(match, "rel")),
      ),
  ),
  en(
    "en-before-last",
    "the\\s+(?<unit>week|month|year)\\s+(?<which>before\\s+last|after\\s+next)",
    (match, clock) =>
      calendarPeriod(
        clock,
        (group(match, "unit") ?? "").toLowerCase() as CalendarUnit,
        /before/i.test(group(match, "which") ?? "") ? -2 : 2,
      ),
  ),
  en("en-earlier-this", "earlier\\s+this\\s+(?<unit>week|month|year)", (match, clock) =>
    earlierThis(clock, (group(match, "unit") ?? "").toLowerCase() as "week" | "month" | "year"),
  ),

  // last weekend, this weekend, this past weekend; over/during/at/on the weekend (the most recent
  // one). A bare "weekend" ("the weekend deploy script") is no time.
  en(
    "en-weekend",
    "(?<rel>last|this\\s+past|the\\s+past|past|this|next)\\s+weekend|(?<the>the)\\s+weekend",
    (match, clock) => {
      if (group(match, "the")) {
        const prep = group(match, "prep")?.toLowerCase();
        return prep && ["over", "during", "at", "on"].includes(prep)
          ? pastWeekend(clock)
          : undefined;
      }
      const rel = (group(match, "rel") ?? "").toLowerCase();
      if (rel === "this") return weekendPeriod(clock, 0);
      if (rel === "next") return weekendPeriod(clock, 1);
      return weekendPeriod(clock, -1);
    },
  ),

  // Wednesday, on Wednesday, last Wednesday, this past Wednesday: the most recent one before
  // today. this/next Wednesday, Wednesday last week: that day of the calendar week. Not "every
  // Wednesday" and not "Wednesdays".
  en(
    "en-weekday",
    `(?<!(?:every|each)\\s+)(?:(?<rel>last|this\\s+past|past|this|next)\\s+)?${WEEKDAY}(?:,?\\s+(?:of\\s+)?(?<weekRel>last|this|next)\\s+week)?`,
    (match, clock) => {
      const day = WEEKDAYS.indexOf((group(match, "weekday") ?? "").toLowerCase());
      const weekRel = group(match, "weekRel");
      if (weekRel) return weekdayOfWeek(clock, day, relativeOffset(weekRel));
      const rel = (group(match, "rel") ?? "").toLowerCase();
      if (rel === "this" || rel === "next") return weekdayOfWeek(clock, day, relativeOffset(rel));
      return recentWeekday(clock, day);
    },
  ),

  // 3 days ago, three days ago, two weeks ago, a month ago, a couple of days ago, a few weeks
  // back, an hour ago; half a year ago.
  en("en-ago", `(?<count>${EN_COUNT})\\s+${UNIT}\\s+(?:ago|back)`, (match, clock) => {
    const count = parseEnCount(group(match, "count") ?? "");
    return count === undefined
      ? undefined
      : agoPeriod(clock, count, unitOf(group(match, "unit") ?? ""));
  }),
  en("en-half-year-ago", "half\\s+a\\s+year\\s+ago", (_, clock) => agoPeriod(clock, 6, "month")),
  en("en-other-day", "the\\s+other\\s+day", (_, clock) => agoPeriod(clock, FEW, "day")),

  // in the last 3 days, the past two weeks, over the last month, past 24 hours, the past few
  // days, last 30 days, this past week, in recent weeks: a rolling window ending today.
  en(
    "en-last",
    `(?:(?:the|this)\\s+(?:last|past|previous)|(?:last|previous)(?=\\s+(?:${EN_COUNT})\\s)|past|(?<recent>recent)(?=\\s+\\w+s\\b))\\s+(?:(?<count>${EN_COUNT})\\s+)?${UNIT}`,
    (match, clock) => {
      const countText = group(match, "count");
      const plural = group(match, "plural") !== undefined;
      if (group(match, "recent") && (!plural || countText)) return undefined;
      // "past weeks" without a number is a few of them; "the past week" is one.
      const count = countText ? parseEnCount(countText) : plural ? FEW : 1;
      if (count === undefined) return undefined;
      return lastPeriod(clock, count, unitOf(group(match, "unit") ?? ""));
    },
  ),

  // recently, lately, of late: about the last 7 days.
  en("en-recently", "recently|lately|of\\s+late", (_, clock) => recentPeriod(clock)),

  // May 2023, May 8, 2023, May 8, in May, last May, early May 2023, mid-May, the end of May,
  // May last year.
  en(
    "en-month",
    `(?:(?<rel>last|this|next)\\s+)?(?:(?<part>early|mid|late|the\\s+(?:beginning|start|middle|end)\\s+of)[\\s-]*)?${MONTH}(?:\\s+${DAY_OF_MONTH})?(?:,?\\s+(?:of\\s+)?${YEAR})?(?:\\s+(?<yearRel>last|this|next)\\s+year)?`,
    monthPeriodOf,
  ),
  // 8 May 2023, the 8th of May, 8th May.
  en(
    "en-day-month",
    `(?:the\\s+)?${DAY_OF_MONTH}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+${YEAR})?`,
    monthPeriodOf,
  ),

  // in 2023, during 2023, the year 2023, since 2023, from 2022 to 2023. A bare number is not a
  // year ("2023 rows"), nor "in 2000 ms" (a unit follows).
  en(
    "en-year",
    `(?<theYear>the\\s+year\\s+)?${YEAR}(?!\\s*(?:%|ms\\b|s\\b|kb\\b|mb\\b|gb\\b|px\\b))`,
    (match, clock) => {
      const prep = group(match, "prep")?.toLowerCase();
      const before = match.input.slice(0, match.index);
      const hasContext =
        group(match, "theYear") !== undefined ||
        (prep !== undefined && prep !== "at" && prep !== "over") ||
        CONTEXT_BEFORE.test(before) ||
        RANGE_END_BEFORE.test(before);
      const year = Number(group(match, "year"));
      return hasContext && dayNumber(year, 1, 1) !== undefined
        ? yearPeriod(clock, year)
        : undefined;
    },
  ),
];
