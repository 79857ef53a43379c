/**
 * Chinese time expressions. Chinese has no spaces, so instead of word boundaries each pattern
 * says which neighbouring characters turn it into part of another word: 上周 is not a time in
 * 晚上周报 (晚上 + 周报), 前天 not in 以前天气 (以前 + 天气), 周一 not in 一周一次 or 上周一共.
 */
import {
  type Clock,
  civil,
  dayNumber,
  dayPeriod,
  monthPeriod,
  monthStart,
  type Period,
  yearPeriod,
} from "./calendar.js";
import { parseZhCount, parseZhNumber, parseZhYear, ZH_COUNT } from "./numbers.js";
import {
  agoPeriod,
  calendarPeriod,
  halfYearPeriod,
  lastPeriod,
  quarterPeriod,
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

// --- Guards: characters that, just before a time word, make it the tail of another word. ------

/** 晚上, 早上, 马上, 以上, 线上, 网上, 路上, 手上, 基本上, 实际上, 会上 … + 周/个月. */
const NOT_AFTER_SHANG =
  "(?<![晚早马以线网路身手桌楼地天头脸面加向往之墙床台车街山海世际实会班纸书])";
/** 一下, 以下, 如下, 底下, 地下, 线下, 手下, 天下 … + 周/个月. */
const NOT_AFTER_XIA = "(?<![一以如底地乡线楼手南陛部之天])";
/** 日本, 成本, 基本, 版本, 账本, 剧本, 文本 … + 月/周. */
const NOT_AFTER_BEN = "(?<![日成基根资样版剧课账书脚文原])";
/** 以前, 之前, 目前, 提前, 眼前, 当前, 先前, 面前, 事前 … + 天/年. */
const NOT_AFTER_QIAN = "(?<![以之目提眼当先面跟生事空向往门此])";
/** 聪明, 光明, 证明, 表明, 声明, 发明, 文明, 透明 … + 天/年 (说明天 stays ambiguous: read as 说 + 明天). */
const NOT_AFTER_MING = "(?<![聪光证表声发文透分])";
/** 如今天气 (如今 + 天气), 至今, 迄今. */
const NOT_AFTER_JIN = "(?<![如至迄])";
/** 过去年份, 失去, 回去, 进去, 出去 + 年. */
const NOT_AFTER_QU = "(?<![过失回进出])";
/** 接近, 将近, 附近, 邻近, 靠近, 亲近 (and 最近, which has its own rules). */
const NOT_AFTER_JIN4 = "(?<![接将附邻靠亲最])";
/** Not the tail of a longer number (十二月 is not 二月, 13月 is not 3月). */
const NOT_AFTER_NUMBER = "(?<![0-9０-９零〇一二两三四五六七八九十百千万几])";

/**
 * After a weekday numeral, characters that make the numeral part of a word or a count instead:
 * 上周一共 (一共 "in total"), 一周三次 (three times), 上周日志 (日志 "log"), 上周天气 (天气), 一下.
 * 下午 is allowed: 周一下午 is Monday afternoon.
 */
const WEEKDAY_TAIL =
  "(?!次|遍|回|个|篇|份|条|单|场|件|项|批|轮|趟|共|直|起|样|些|下(?!午)|切|般|定|点|志|记|报|常|期|程|气|天|周|月|年|间|号)";
/** 周 as the head of another word: 周期 (cycle), 周岁, 周边, 周围, 周到, 周全, 周转, 周长, 周年, 周刊. */
const WEEK_WORD = "(?:周(?![期岁边围到全转长年刊])|星期|礼拜)";
/** 月 as the head of another word: 月亮, 月光, 月球, 月饼. (一月一次 is handled where used.) */
const MONTH_TAIL = "(?![亮光球饼])";
/** Part of the day after a day word, kept in the match so that keyword search drops it too. */
const PART_OF_DAY = "(?:上午|下午|中午|早上|早晨|晚上|傍晚|凌晨|夜里|半夜)?";

// --- Shapes of numbers in dates (validated by the resolvers). ---------------------------------

/** Some writers (and formatters) put a space between digits and Chinese: 2023 年 5 月 8 日. */
const SP = "\\s?";

const YEAR = "[0-9０-９]{4}|[〇零一二三四五六七八九]{4}";
const MONTH = "[0-9０-９]{1,2}|十[一二]?|[一二三四五六七八九]";
const DAY = "[0-9０-９]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九]";
/** 初/底/末 of a year or month, 上旬/中旬/下旬 of a month: the same period, approximately. */
const PART = "(?<part>年?初(?![步次始衷心])|年?底|年?末|上旬|中旬|下旬)?";

// --- Tables. -----------------------------------------------------------------------------------

/** Days relative to today. */
const DAY_WORDS: ReadonlyArray<readonly [pattern: string, offset: number]> = [
  ["大前天", -3],
  [`${NOT_AFTER_QIAN}前天`, -2],
  ["昨天|昨日|昨晚|昨夜", -1],
  [`${NOT_AFTER_JIN}(?:今天|今日|今早|今晚|今夜)`, 0],
  [`${NOT_AFTER_MING}(?:明天(?!气)|明日)`, 1],
];

/** 上上周 … 下下周, 上个月 …, 去年 …: offsets from the current week / month / year. */
const RELATIVE = `(?<rel>${NOT_AFTER_SHANG}上上|${NOT_AFTER_SHANG}上|${NOT_AFTER_BEN}本|这|${NOT_AFTER_XIA}下下|${NOT_AFTER_XIA}下)`;
const RELATIVE_OFFSET: Record<string, number> = { 上上: -2, 上: -1, 本: 0, 这: 0, 下: 1, 下下: 2 };

const YEAR_WORD = `(?<yearWord>大前年|${NOT_AFTER_QIAN}前年|${NOT_AFTER_QU}去年|${NOT_AFTER_JIN}今年|${NOT_AFTER_MING}明年)`;
const YEAR_WORD_OFFSET: Record<string, number> = {
  大前年: -3,
  前年: -2,
  去年: -1,
  今年: 0,
  明年: 1,
};

/** An explicit year (2023年, 二〇二三年) or a relative one (去年); 年代 is a decade. */
const ANY_YEAR = `(?:${YEAR_WORD}|${NOT_AFTER_NUMBER}(?<year>${YEAR})${SP}年(?!代))`;

/** 一 … 六 are Monday … Saturday; 日, 天 and 7 are Sunday. */
const WEEKDAY = "[一二三四五六日天1-7１-７]";

const UNITS: Record<string, Unit> = {
  小时: "hour",
  钟头: "hour",
  天: "day",
  日: "day",
  周: "week",
  星期: "week",
  礼拜: "week",
  月: "month",
  年: "year",
};
const UNIT = "(?<unit>小时|钟头|天|日|周|星期|礼拜|月|年)";

// --- Helpers. ----------------------------------------------------------------------------------

function weekdayNumber(text: string): number {
  const number = parseZhNumber(text);
  return number === undefined || number === 7 ? 0 : number; // 日, 天, 7 → Sunday
}

function yearOf(match: RegExpExecArray, thisYear: number): number | undefined {
  const word = group(match, "yearWord");
  if (word) return thisYear + (YEAR_WORD_OFFSET[word] ?? 0);
  const year = group(match, "year");
  return year ? parseZhYear(year) : undefined;
}

/** Year, month and day groups (any may be absent) → a day, a month or a year. */
function datePeriod(match: RegExpExecArray, clock: Clock): Period | undefined {
  const now = civil(clock.today);
  const year = yearOf(match, now.year);
  const monthText = group(match, "month");
  const dayText = group(match, "day");
  const precision = group(match, "part") ? "approximate" : "exact";
  if (monthText === undefined) {
    return year === undefined || dayNumber(year, 1, 1) === undefined
      ? undefined
      : yearPeriod(clock, year, precision);
  }
  const month = parseZhNumber(monthText);
  if (month === undefined || month < 1 || month > 12) return undefined;
  if (dayText === undefined) {
    const y = year ?? recentMonthYear(clock, month);
    return dayNumber(y, month, 1) === undefined
      ? undefined
      : monthPeriod(clock, y, month, precision);
  }
  const day = parseZhNumber(dayText);
  if (day === undefined || group(match, "part")) return undefined;
  const date = year === undefined ? recentDate(clock, month, day) : dayNumber(year, month, day);
  return date === undefined ? undefined : dayPeriod(clock, date);
}

const MONTH_DAY = `(?:(?<month>${MONTH})${SP}月份?${MONTH_TAIL}(?:${SP}(?<day>${DAY})${SP}[日号])?)`;

// --- Rules. ------------------------------------------------------------------------------------

export const ZH_RULES: readonly Rule[] = [
  ...DAY_WORDS.map(([word, offset]) =>
    rule(`zh-day ${offset}`, `(?:${word})${PART_OF_DAY}`, (_, clock) => relativeDay(clock, offset)),
  ),

  // 上周, 本周, 这个星期, 上上周, 下周; 上周三, 上星期三, 上礼拜三; 上周末. 这一周 is this week.
  rule(
    "zh-week",
    `${RELATIVE}(?:个|一)?${WEEK_WORD}(?:(?<weekend>末)|(?<weekday>${WEEKDAY})${WEEKDAY_TAIL})?`,
    (match, clock) => {
      const offset = RELATIVE_OFFSET[group(match, "rel") ?? ""] ?? 0;
      if (group(match, "weekend")) return weekendPeriod(clock, offset);
      const weekday = group(match, "weekday");
      if (weekday) return weekdayOfWeek(clock, weekdayNumber(weekday), offset);
      return calendarPeriod(clock, "week", offset);
    },
  ),

  // 周三, 星期三, 礼拜天: the most recent one before today. Not 每周三 (every Wednesday) nor
  // 一周三次 / 两周一 (counts of weeks).
  rule(
    "zh-weekday",
    `(?<![0-9０-９零〇一二两三四五六七八九十几每个])(?:周|星期|礼拜)(?<weekday>${WEEKDAY})${WEEKDAY_TAIL}`,
    (match, clock) => recentWeekday(clock, weekdayNumber(group(match, "weekday") ?? "")),
  ),

  // 上个月, 上月, 本月, 这个月, 下个月, 上上个月; 上个月8号; 上个月底.
  rule(
    "zh-month",
    `(?<rel>${NOT_AFTER_SHANG}上上个?|${NOT_AFTER_SHANG}上个?|${NOT_AFTER_BEN}本|这个?|${NOT_AFTER_XIA}下个?)月份?${MONTH_TAIL}(?:(?<day>${DAY})[日号]|(?<part>初|底|末|上旬|中旬|下旬))?`,
    (match, clock) => {
      const rel = (group(match, "rel") ?? "").replace("个", "");
      const now = civil(clock.today);
      const target = civil(monthStart(now.year, now.month + (RELATIVE_OFFSET[rel] ?? 0)));
      const dayText = group(match, "day");
      if (dayText !== undefined) {
        const day = dayNumber(target.year, target.month, parseZhNumber(dayText) ?? 0);
        return day === undefined ? undefined : dayPeriod(clock, day);
      }
      const precision = group(match, "part") ? "approximate" : "exact";
      return monthPeriod(clock, target.year, target.month, precision);
    },
  ),

  // 2023年, 2023年5月, 2023年5月8日, 去年, 今年, 前年, 去年5月, 今年三月八号, 去年年底, 2023年初.
  rule("zh-year", `${ANY_YEAR}(?:${SP}${MONTH_DAY})?${PART}`, datePeriod),

  // 5月, 五月份, 5月8日, 五月八号, 5月初: the most recent past one (today and this month count).
  rule(
    "zh-month-day",
    `${NOT_AFTER_NUMBER}(?<![每个第])${MONTH_DAY}${PART}(?![一两]?[次回趟遍])`,
    (match, clock) => (group(match, "part")?.includes("年") ? undefined : datePeriod(match, clock)),
  ),

  // 上季度, 本季度, 这个季度; 2024年第一季度, 去年第四季度, 2024年Q1, 第三季度 (most recent past).
  rule(
    "zh-quarter-relative",
    `(?<rel>${NOT_AFTER_SHANG}上个?|${NOT_AFTER_BEN}本|这个?|${NOT_AFTER_XIA}下个?)季度`,
    (match, clock) => {
      const rel = (group(match, "rel") ?? "").replace("个", "");
      return calendarPeriod(clock, "quarter", RELATIVE_OFFSET[rel] ?? 0);
    },
  ),
  rule(
    "zh-quarter",
    `(?:${ANY_YEAR}\\s*)?(?:第(?<quarter>[一二三四1-4１-４])季度|(?<![A-Za-z0-9])[Qq](?<q>[1-4])(?![0-9]))`,
    (match, clock) => {
      const now = civil(clock.today);
      const quarter = parseZhNumber(group(match, "quarter") ?? group(match, "q") ?? "") ?? 0;
      const year = yearOf(match, now.year);
      if (year === undefined && group(match, "q")) return undefined; // a bare "Q3" is no date
      const current = Math.floor((now.month - 1) / 3) + 1;
      return quarterPeriod(clock, year ?? (quarter <= current ? now.year : now.year - 1), quarter);
    },
  ),

  // 上半年, 下半年 (this year's), 去年下半年, 2023年上半年.
  rule(
    "zh-half-year",
    `${ANY_YEAR}?(?<half>${NOT_AFTER_SHANG}上|${NOT_AFTER_XIA}下)半年`,
    (match, clock) => {
      const year = yearOf(match, civil(clock.today).year) ?? civil(clock.today).year;
      return halfYearPeriod(clock, year, group(match, "half") === "上" ? 1 : 2);
    },
  ),

  // 三天前, 3天前, 两周前, 一个月前, 两个星期以前, 半年前, 半个月前, 几天前, 三小时前.
  // 三月前 is left to 三月 (March): without 个 it is more often the month. 前端/前台 are words.
  rule(
    "zh-ago",
    `${NOT_AFTER_NUMBER}(?<count>${ZH_COUNT}|半)${SP}(?<ge>个)?${UNIT}(?:以|之)?前(?![端台线])`,
    (match, clock) => {
      const countText = group(match, "count") ?? "";
      const unitText = group(match, "unit") ?? "";
      const hasGe = group(match, "ge") !== undefined;
      if (unitText === "月" && !hasGe) return undefined;
      if (countText === "半") {
        if (unitText === "年") return agoPeriod(clock, 6, "month");
        if (unitText === "月") return agoPeriod(clock, 2, "week");
        return undefined;
      }
      const count = parseZhCount(countText);
      const unit = UNITS[unitText];
      return count === undefined || !unit ? undefined : agoPeriod(clock, count, unit);
    },
  ),

  // 前几天, 前两天: "the other day", a few days ago.
  rule("zh-few-days-ago", `${NOT_AFTER_QIAN}前(?:几|两)天`, (_, clock) =>
    agoPeriod(clock, "few", "day"),
  ),

  // 最近三天, 过去一周, 近两个月, 过去24小时, 这两天, 最近几周, 近一年来: a rolling window.
  rule(
    "zh-last",
    `(?:最近|过去的?|${NOT_AFTER_JIN4}近|这)${SP}(?<count>${ZH_COUNT})${SP}(?:个)?${UNIT}(?:以来|来|内|里)?`,
    (match, clock) => {
      const count = parseZhCount(group(match, "count") ?? "");
      const unit = UNITS[group(match, "unit") ?? ""];
      return count === undefined || !unit ? undefined : lastPeriod(clock, count, unit);
    },
  ),

  // 最近, 近期, 近来, 近日, 这些天, 这阵子, 这段时间: about the last 7 days. Not 最近邻 (nearest
  // neighbour) nor 最近一次 (the latest one, however old).
  rule(
    "zh-recent",
    `最近(?!邻|一次|一回|一条|一个)|${NOT_AFTER_JIN4}(?:近期|近来|近日)|这些天|这阵子|这段时间|这段日子`,
    (_, clock) => recentPeriod(clock),
  ),
];
