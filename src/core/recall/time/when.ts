/**
 * Questions that ask *when*, and memories that say when. A question's kind says what its answer
 * looks like — the old question-answering idea of an answer type: "when did Nate win his third
 * tournament?" is answered by the turn that places the win in time ("I won another tournament
 * last week"), not by the many that mention tournaments. Ranking weighs a turn of a conversation
 * (a memory stored with a context) that names no time down for such a question
 * (`RankingOptions.whenWeight`): a turn's own time is when it was said, and the turn that
 * answers is the one that places the event. A record stored on its own — "Deployed billing v2"
 * — is placed in time by its own timestamp, which answers the question.
 *
 * Both are read from words only: the question's text, and a memory's own search terms (stemmed
 * English, segmented Chinese; see search-text), which ranking already holds, so nothing more is
 * stored or fetched.
 */

import { MONTHS_EN } from "../../../text/calendar-words.js";
import { stem } from "../../../text/stem.js";
import { WEEKDAYS } from "./rules-en.js";

/**
 * An English question whose first words ask for a point in time: "When did…", "What year…",
 * "How long ago…", "And when is…". "when" is a question word only before the inverted verb
 * ("when did", "when is"); before anything else it is a conjunction ("when the processor was
 * down, how did we cope?"), and further in it is one too ("what did I do when the build
 * failed?"). "How long" asks for a span, which the answer gives in hours as often as in days:
 * not a point in time.
 */
const ASKS_WHEN_EN =
  /^[\s"'“‘(]*(?:(?:and|so|but|then|also|ok|okay)[\s,]+)?(?:(?:since )?when(?:'s| and where| or where)?\s+(?:did|do|does|is|was|were|will|would|can|could|should|shall|has|have|had|are|am|may|might|must)|when's|how long ago|(?:what|which|in what|in which|on what|on which) (?:time|day|date|year|month|week|weekday|season|decade))(?![\w-])/i;

/** Chinese asks for a point in time anywhere in the question ("我表哥是哪天过生日来着？"). */
const ASKS_WHEN_ZH =
  /什么时候|啥时候|何时|哪天|哪一天|哪日|几号|几月|哪个月|哪一年|哪年|多久以前|多久之前|几点|什么时间|星期几|周几|礼拜几|哪一周|哪周|几时/;

/** Whether a question (one clause of a query) asks when something happened, or will. */
export function asksWhen(question: string): boolean {
  return ASKS_WHEN_EN.test(question) || ASKS_WHEN_ZH.test(question);
}

/**
 * English words that place something in time, stemmed as search terms are. "may" is left out
 * (the month reads as the verb), "day" too ("have a nice day").
 */
const TIME_WORDS_EN = new Set(
  [
    "yesterday",
    "today",
    "tonight",
    "tomorrow",
    "ago",
    "recently",
    "lately",
    "earlier",
    "week",
    "weekend",
    "month",
    "year",
    "decade",
    "morning",
    "afternoon",
    "evening",
    "night",
    ...WEEKDAYS,
    ...MONTHS_EN.filter((month) => month !== "may"),
    "summer",
    "winter",
    "spring",
    "autumn",
    "christmas",
    "birthday",
  ].flatMap((word) => [stem(word), stem(`${word}s`)]),
);

/** A year (1900–2099), a day of the month ("15th"), an hour ("9am"). */
const TIME_NUMBER_EN = /^(?:(?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th|am|pm))$/;

/** Chinese words that place something in time, as the segmenter keeps them. */
const TIME_WORDS_ZH = new Set([
  "昨天",
  "今天",
  "明天",
  "前天",
  "后天",
  "昨晚",
  "今晚",
  "明晚",
  "上周",
  "下周",
  "本周",
  "下个月",
  "本月",
  "去年",
  "今年",
  "明年",
  "前年",
  "周末",
  "早上",
  "上午",
  "中午",
  "下午",
  "晚上",
  "凌晨",
  "傍晚",
  "最近",
  "刚才",
  "刚刚",
  "近期",
  "月初",
  "月底",
  "年初",
  "年底",
  "上旬",
  "中旬",
  "下旬",
  "当天",
  "那天",
  "春节",
  "国庆",
  "元旦",
  "生日",
  "夏天",
  "冬天",
  "春天",
  "秋天",
]);

/**
 * Chinese words of a day or a span: 周三, 星期六, 礼拜天, 十月, 五月份, 三天, 几年, 两个月.
 */
const TIME_PATTERN_ZH =
  /^(?:(?:周|星期|礼拜)[一二三四五六日天]|[一二三四五六七八九十]{1,3}月份?|[几一二三四五六七八九十两半]{1,3}个?(?:天|周|星期|月|年))$/;

/**
 * A unit the segmenter keeps apart from the word before it: 2023 年, 5 月, 8 日 / 号, 3 点,
 * 两 周, 上个 月.
 */
const TIME_UNIT_ZH = new Set(["年", "月", "日", "号", "点", "周", "天", "星期", "礼拜"]);
const BEFORE_UNIT_ZH = /^(?:\d+|[一二三四五六七八九十两几半]+个?|[上下这本每]个?)$/;

/** Whether a memory's own search terms name a time: a day, a date, a period, "ago", 昨天. */
export function namesTime(terms: readonly string[]): boolean {
  for (const [index, term] of terms.entries()) {
    if (TIME_WORDS_EN.has(term) || TIME_NUMBER_EN.test(term)) return true;
    if (TIME_WORDS_ZH.has(term) || TIME_PATTERN_ZH.test(term)) return true;
    if (TIME_UNIT_ZH.has(term) && index > 0 && BEFORE_UNIT_ZH.test(terms[index - 1]!)) return true;
  }
  return false;
}
