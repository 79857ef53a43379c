/**
 * Calendar words written one way in keyword search, whatever the language or variant: the days
 * of the week and the parts of the day. An agent schedules in both languages ("Friday evening",
 * "每周五晚上"), and Chinese alone writes a weekday three ways (周五, 星期五, 礼拜五); a question
 * in one form should find a memory in another by its keywords, not by the vector alone.
 *
 * Each is written as the Chinese word the segmenter keeps whole (周五, 上午): it is a word of
 * the vocabulary already, and English words are mapped onto it one to one, so an English-only
 * store ranks as before.
 */
import { stem } from "./stem.js";

/**
 * A weekday written with 周, 星期 or 礼拜, not followed by a counter: 每周五 is "every Friday",
 * 每周一次 "once a week", 一周三天 "three days a week". The segmenter splits 每周五 into
 * 每周 / 五 (and 每周一例会 into 每周 / 一例 / 会), so the weekday is set apart before it runs.
 */
const WEEKDAY_ZH =
  /(?:周|星期|礼拜)([一二三四五六日天])(?![次天遍回趟个位名节门顿条件场年月周号])/g;

/** English month names, January first. */
export const MONTHS_EN = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
/** Chinese month names as the segmenter keeps them whole: 一月 … 十二月. */
const MONTHS_ZH = MONTHS_EN.map(
  (_, index) =>
    `${["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"][index]}月`,
);

/**
 * A month written with digits, 4月 or 4月份, which the segmenter splits into 4 / 月; not a
 * count of months (3个月) nor a digit of a longer number (2024 年 is followed by 年, not 月).
 */
const MONTH_DIGITS_ZH = /(?<![\d.])(1[0-2]|0?[1-9])\s*月份?/g;

/**
 * Chinese text with each weekday set apart as 周一 … 周日 and each month written with digits
 * as 一月 … 十二月, for the segmenter.
 */
export function separateCalendarWords(text: string): string {
  return text
    .normalize("NFKC")
    .replace(WEEKDAY_ZH, (_, day: string) => ` 周${day === "天" ? "日" : day} `)
    .replace(MONTH_DIGITS_ZH, (_, month: string) => ` ${MONTHS_ZH[Number(month) - 1]} `);
}

const WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const WEEKDAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"];

const SAME_AS = new Map<string, string>([
  ...WEEKDAYS_EN.flatMap((day, index): [string, string][] => [
    [day, WEEKDAYS_ZH[index]!],
    [`${day}s`, WEEKDAYS_ZH[index]!],
  ]),
  ["morning", "上午"],
  ["mornings", "上午"],
  ["早上", "上午"],
  ["早晨", "上午"],
  ["afternoon", "下午"],
  ["afternoons", "下午"],
  ["evening", "晚上"],
  ["evenings", "晚上"],
  ["晚间", "晚上"],
  ["noon", "中午"],
  // "May" is left out: in English it is far more often the verb.
  ...MONTHS_EN.flatMap((month, index): [string, string][] =>
    month === "may" ? [] : [[month, MONTHS_ZH[index]!]],
  ),
  ...MONTHS_ZH.map((month): [string, string] => [`${month}份`, month]),
]);

/** An hour of the clock with its half of the day in one token: "9am", "10pm". */
const CLOCK_HOUR = /^(\d{1,2})(am|pm)$/;
const HOUR = /^\d{1,2}$/;
const HALF_OF_DAY: Record<string, string> = { am: "上午", pm: "下午" };

/**
 * Lower-cased tokens in text order with every calendar word in its one form. "am" and "pm"
 * count only after an hour ("8:30 am", "9am"): "am" alone is "I am".
 */
export function calendarWords(tokens: readonly string[]): string[] {
  return inOneForm(tokens, SAME_AS);
}

function inOneForm(tokens: readonly string[], sameAs: ReadonlyMap<string, string>): string[] {
  const words: string[] = [];
  for (const token of tokens) {
    const clock = CLOCK_HOUR.exec(token);
    if (clock) {
      words.push(clock[1]!, HALF_OF_DAY[clock[2]!]!);
    } else if ((token === "am" || token === "pm") && HOUR.test(words.at(-1) ?? "")) {
      words.push(HALF_OF_DAY[token]!);
    } else {
      words.push(sameAs.get(token) ?? token);
    }
  }
  return words;
}

// ---- Upgrading search terms stored before calendar words had one form.

/**
 * The stems the old words were stored as. "even" was stored for both "evening" and the adverb:
 * it is mapped only where the caller knows it was "evening".
 */
const EVENING_STEM = stem("evening");
const STORED_SAME_AS = new Map(
  [...SAME_AS]
    .map(([word, form]): [string, string] => [stem(word), form])
    .filter(([word]) => word !== EVENING_STEM),
);

/** A weekday the segmenter kept whole: 周五, 星期五, 礼拜天. */
const WEEKDAY_WORD_ZH = /^(?:周|星期|礼拜)([一二三四五六日天])$/;
/** What the segmenter split off a weekday's number (每周 / 五, 礼拜 / 五), and what it keeps. */
const WEEKDAY_PREFIX_ZH = new Map([
  ["周", ""],
  ["星期", ""],
  ["礼拜", ""],
  ["每周", "每"],
  ["上周", "上"],
  ["下周", "下"],
  ["本周", "本"],
  ["这周", "这"],
]);
const WEEKDAY_NUMBER_ZH = /^[一二三四五六日天]$/;
const COUNTER_ZH = /^[次天遍回趟个位名节门顿条件场年月周号]/;

const MONTH_NUMBER = /^\d{1,2}$/;

const weekdayZh = (day: string) => `周${day === "天" ? "日" : day}`;

/**
 * Stored search terms (stemmed, as the tokenizer before calendar words gave them) as the
 * current tokenizer gives them, as far as the terms tell: `evening` says whether a stored
 * "even" stood for "evening". Terms already current are returned as they are.
 */
export function upgradeStoredTerms(terms: readonly string[], evening: boolean): string[] {
  const joined: string[] = [];
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index]!;
    const prefix = WEEKDAY_PREFIX_ZH.get(term);
    const whole = WEEKDAY_WORD_ZH.exec(term);
    const month = MONTH_NUMBER.test(term) ? Number(term) : 0;
    if (month >= 1 && month <= 12 && (terms[index + 1] === "月" || terms[index + 1] === "月份")) {
      joined.push(MONTHS_ZH[month - 1]!);
      index++;
    } else if (
      prefix !== undefined &&
      WEEKDAY_NUMBER_ZH.test(terms[index + 1] ?? "") &&
      !COUNTER_ZH.test(terms[index + 2] ?? "")
    ) {
      if (prefix) joined.push(prefix);
      joined.push(weekdayZh(terms[++index]!));
    } else if (whole) {
      joined.push(weekdayZh(whole[1]!));
    } else {
      joined.push(evening && term === EVENING_STEM ? "晚上" : term);
    }
  }
  return inOneForm(joined, STORED_SAME_AS);
}
