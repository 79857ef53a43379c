/**
 * Free-text dates of the evaluation data sets, read as UTC (the data carry no time zone, and
 * results must not depend on the host's zone).
 *
 * - LoCoMo: "1:56 pm on 8 May, 2023"; also tolerated: "8 May 2023", "May 8th, 2023 1:56pm",
 *   "13:56 on 8 May, 2023", "12:09 a.m. on 13 Sept. 2023", and ISO 8601.
 * - MemDaily: "2024年04月01日 周一 08:30"; also without the weekday or the time, and ISO 8601.
 */
import { parseInstant } from "../core/recall/time/range.js";

const MONTHS: ReadonlyMap<string, number> = new Map(
  [
    ["jan", "january"],
    ["feb", "february"],
    ["mar", "march"],
    ["apr", "april"],
    ["may", "may"],
    ["jun", "june"],
    ["jul", "july"],
    ["aug", "august"],
    ["sep", "september", "sept"],
    ["oct", "october"],
    ["nov", "november"],
    ["dec", "december"],
  ].flatMap((names, index) => names.map((name) => [name, index] as const)),
);

/** The UTC instant, or undefined when a field is out of range (31 June, 25:00…). */
function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): Date | undefined {
  if (month < 0 || month > 11 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const date = new Date(Date.UTC(year, month, day, hour, minute, second));
  // Date.UTC rolls 31 June over to 1 July; refuse instead.
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  // Date.UTC maps years 0..99 to 1900..1999.
  if (year < 100) date.setUTCFullYear(year);
  return date;
}

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

const CLOCK_12 = /\b(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?/i;
const CLOCK_24 = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b/;

/** Finds a time of day and returns it with the rest of the text. */
function takeTime(text: string): { time?: TimeOfDay; rest: string } | undefined {
  const twelve = CLOCK_12.exec(text);
  if (twelve) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return undefined;
    const pm = twelve[4]!.toLowerCase() === "p";
    return {
      time: {
        hour: (hour % 12) + (pm ? 12 : 0),
        minute: Number(twelve[2] ?? 0),
        second: Number(twelve[3] ?? 0),
      },
      rest: text.replace(twelve[0], " "),
    };
  }
  const clock = CLOCK_24.exec(text);
  if (clock) {
    return {
      time: { hour: Number(clock[1]), minute: Number(clock[2]), second: Number(clock[3] ?? 0) },
      rest: text.replace(clock[0], " "),
    };
  }
  return { rest: text };
}

/** Parses LoCoMo's `session_<N>_date_time`; undefined when it is not a date. */
export function parseLocomoDateTime(text: string): Date | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const iso = parseInstant(trimmed);
  if (iso) return iso;
  const split = takeTime(trimmed.toLowerCase());
  if (!split) return undefined;
  let month: number | undefined;
  let year: number | undefined;
  let day: number | undefined;
  const words = split.rest
    .replace(/[,.]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0 && word !== "on" && word !== "at" && word !== "of");
  for (const word of words) {
    const named = MONTHS.get(word);
    if (named !== undefined) {
      if (month !== undefined) return undefined;
      month = named;
      continue;
    }
    const number = /^(\d{1,4})(st|nd|rd|th)?$/.exec(word);
    if (!number) return undefined;
    const value = Number(number[1]);
    if (number[1]!.length === 4 && !number[2]) {
      if (year !== undefined) return undefined;
      year = value;
    } else if (number[1]!.length <= 2) {
      if (day !== undefined) return undefined;
      day = value;
    } else {
      return undefined;
    }
  }
  if (month === undefined || year === undefined || day === undefined) return undefined;
  const time = split.time;
  return utc(year, month, day, time?.hour, time?.minute, time?.second);
}

const MEMDAILY =
  /^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]\s*(?:(?:周|星期|礼拜)[一二三四五六日天])?\s*(?:(\d{1,2})\s*[:：]\s*(\d{2})(?:\s*[:：]\s*(\d{2}))?)?$/;

/** Parses MemDaily's `time` ("2024年04月01日 周一 08:30"); undefined when it is not a date. */
export function parseMemdailyTime(text: string): Date | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const iso = parseInstant(trimmed);
  if (iso) return iso;
  const match = MEMDAILY.exec(trimmed);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  return utc(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour ?? 0),
    Number(minute ?? 0),
    Number(second ?? 0),
  );
}

/**
 * Gives every item a time: its own when it has one, else the previous item's (the data are in
 * time order), else the next dated item's, else `fallback`. Returns how many had none.
 */
export function fillMissingTimes(
  times: readonly (Date | undefined)[],
  fallback: Date,
): { times: Date[]; missing: number } {
  const filled: Date[] = [];
  let missing = 0;
  let previous: Date | undefined;
  for (let index = 0; index < times.length; index++) {
    const own = times[index];
    if (own) {
      previous = own;
      filled.push(own);
      continue;
    }
    missing += 1;
    filled.push(previous ?? times.slice(index + 1).find((time) => time !== undefined) ?? fallback);
  }
  return { times: filled, missing };
}
