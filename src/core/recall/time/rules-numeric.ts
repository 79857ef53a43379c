/**
 * Numeric dates, the same in every language: ISO dates (2024-05-08, 2024/5/8) and quarters
 * (Q1 2024, 2024 Q1). Dotted numbers are left alone: "version 2023.5" is no date.
 */
import { dayNumber, dayPeriod } from "./calendar.js";
import { quarterPeriod } from "./periods.js";
import { group, type Rule, rule } from "./rule.js";

const START = "(?<![A-Za-z0-9.])";
/** The time of day of an ISO date-time, kept in the match: T10:00, 10:00:00.123+08:00. */
const TIME = "[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:?\\d{2})?";
const PREP = "(?:(?<prep>in|on|at|during|from|for)\\s+)?";

export const NUMERIC_RULES: readonly Rule[] = [
  // 2024-05-08, 2024/5/8, and a date-time's day (2024-05-08T10:00:00Z, the whole day: a query
  // rarely means the instant). Not 2024-05-08-1.
  rule(
    "iso-date",
    `${START}${PREP}(?<year>\\d{4})(?<sep>[-/])(?<month>\\d{1,2})\\k<sep>(?<day>\\d{1,2})(?:${TIME})?(?![0-9]|[-/.]\\d)`,
    (match, clock) => {
      const day = dayNumber(
        Number(group(match, "year")),
        Number(group(match, "month")),
        Number(group(match, "day")),
      );
      return day === undefined ? undefined : dayPeriod(clock, day);
    },
    "i",
  ),

  // Q1 2024, Q3, 2023, 2024 Q1, 2024-Q1. A bare "Q3" is not a date (question 3?).
  rule(
    "quarter",
    `${START}${PREP}(?:Q(?<q>[1-4])\\s*,?\\s*(?<year>(?:19|20)\\d{2})|(?<year2>(?:19|20)\\d{2})\\s*-?\\s*Q(?<q2>[1-4]))(?![A-Za-z0-9])`,
    (match, clock) =>
      quarterPeriod(
        clock,
        Number(group(match, "year") ?? group(match, "year2")),
        Number(group(match, "q") ?? group(match, "q2")),
      ),
    "i",
  ),
];
