import { describe, expect, it } from "vitest";
import {
  findTimeExpressions,
  periodsMeant,
  stripTimeExpressions,
  type TimeExpression,
} from "./expressions.js";

/** Wednesday 15 May 2024, 10:00 UTC. This week (Monday start) is 13-19 May, last week 6-12 May. */
const REFERENCE = new Date("2024-05-15T10:00:00Z");

/**
 * One line per expression: `text from~to precision`. Whole days are shown as dates (from at
 * 00:00:00.000, to at 23:59:59.999); anything else as full ISO instants.
 */
function show({ text, from, to, precision }: TimeExpression): string {
  const start = from.toISOString();
  const end = new Date(to.getTime() + 1).toISOString();
  const wholeDays = start.endsWith("T00:00:00.000Z") && end.endsWith("T00:00:00.000Z");
  const range = wholeDays
    ? `${start.slice(0, 10)}~${to.toISOString().slice(0, 10)}`
    : `${start}~${to.toISOString()}`;
  return `${text} ${range} ${precision}`;
}

function find(query: string, options?: Parameters<typeof findTimeExpressions>[2]): string[] {
  return findTimeExpressions(query, REFERENCE, options).map(show);
}

describe("findTimeExpressions: Chinese", () => {
  it.each([
    // Days around today.
    ["今天", "今天 2024-05-15~2024-05-15 exact"],
    ["昨天部署失败了", "昨天 2024-05-14~2024-05-14 exact"],
    ["前天", "前天 2024-05-13~2024-05-13 exact"],
    ["大前天的日志", "大前天 2024-05-12~2024-05-12 exact"],
    ["明天", "明天 2024-05-16~2024-05-16 exact"],
    ["昨天下午的部署", "昨天下午 2024-05-14~2024-05-14 exact"],
    ["昨晚", "昨晚 2024-05-14~2024-05-14 exact"],
    // Calendar weeks, Monday first.
    ["上周", "上周 2024-05-06~2024-05-12 exact"],
    ["本周", "本周 2024-05-13~2024-05-19 exact"],
    ["这周", "这周 2024-05-13~2024-05-19 exact"],
    ["这个星期", "这个星期 2024-05-13~2024-05-19 exact"],
    ["上上周", "上上周 2024-04-29~2024-05-05 exact"],
    ["上个礼拜", "上个礼拜 2024-05-06~2024-05-12 exact"],
    ["下周", "下周 2024-05-20~2024-05-26 exact"],
    // Weekdays of a named week, and alone (most recent before today).
    ["上周三部署失败", "上周三 2024-05-08~2024-05-08 exact"],
    ["上星期三", "上星期三 2024-05-08~2024-05-08 exact"],
    ["上礼拜三", "上礼拜三 2024-05-08~2024-05-08 exact"],
    ["上个星期五", "上个星期五 2024-05-10~2024-05-10 exact"],
    ["上周日", "上周日 2024-05-12~2024-05-12 exact"],
    ["上周一下午", "上周一 2024-05-06~2024-05-06 exact"],
    ["这周五", "这周五 2024-05-17~2024-05-17 exact"],
    ["周三", "周三 2024-05-08~2024-05-08 exact"],
    ["星期三", "星期三 2024-05-08~2024-05-08 exact"],
    ["星期一的会", "星期一 2024-05-13~2024-05-13 exact"],
    ["周五", "周五 2024-05-10~2024-05-10 exact"],
    ["礼拜天", "礼拜天 2024-05-12~2024-05-12 exact"],
    // Weekends are Saturday + Sunday.
    ["上周末", "上周末 2024-05-11~2024-05-12 exact"],
    ["这周末", "这周末 2024-05-18~2024-05-19 exact"],
    // Months.
    ["上个月", "上个月 2024-04-01~2024-04-30 exact"],
    ["上月", "上月 2024-04-01~2024-04-30 exact"],
    ["本月", "本月 2024-05-01~2024-05-31 exact"],
    ["这个月", "这个月 2024-05-01~2024-05-31 exact"],
    ["上上个月", "上上个月 2024-03-01~2024-03-31 exact"],
    ["上个月8号", "上个月8号 2024-04-08~2024-04-08 exact"],
    ["上个月底", "上个月底 2024-04-01~2024-04-30 approximate"],
    // Years.
    ["去年", "去年 2023-01-01~2023-12-31 exact"],
    ["今年", "今年 2024-01-01~2024-12-31 exact"],
    ["前年", "前年 2022-01-01~2022-12-31 exact"],
    ["大前年", "大前年 2021-01-01~2021-12-31 exact"],
    ["去年5月", "去年5月 2023-05-01~2023-05-31 exact"],
    ["今年三月八号", "今年三月八号 2024-03-08~2024-03-08 exact"],
    ["去年年底", "去年年底 2023-01-01~2023-12-31 approximate"],
    // Explicit dates; without a year, the most recent past one (today included).
    ["2023年", "2023年 2023-01-01~2023-12-31 exact"],
    ["2023年5月", "2023年5月 2023-05-01~2023-05-31 exact"],
    ["2023年5月8日", "2023年5月8日 2023-05-08~2023-05-08 exact"],
    ["2023 年 5 月 8 日", "2023 年 5 月 8 日 2023-05-08~2023-05-08 exact"],
    ["二〇二三年五月", "二〇二三年五月 2023-05-01~2023-05-31 exact"],
    ["２０２３年５月８日", "２０２３年５月８日 2023-05-08~2023-05-08 exact"],
    ["5月8日", "5月8日 2024-05-08~2024-05-08 exact"],
    ["5月15日", "5月15日 2024-05-15~2024-05-15 exact"],
    ["5月16号", "5月16号 2023-05-16~2023-05-16 exact"],
    ["五月八号", "五月八号 2024-05-08~2024-05-08 exact"],
    ["三十一日", []],
    ["十二月", "十二月 2023-12-01~2023-12-31 exact"],
    ["5月", "5月 2024-05-01~2024-05-31 exact"],
    ["6月份的事故", "6月份 2023-06-01~2023-06-30 exact"],
    ["5月初", "5月初 2024-05-01~2024-05-31 approximate"],
    ["2月29日", "2月29日 2024-02-29~2024-02-29 exact"],
    // N units ago: a day is that day; longer units a unit's width around the point.
    ["三天前", "三天前 2024-05-12~2024-05-12 exact"],
    ["3天前", "3天前 2024-05-12~2024-05-12 exact"],
    ["3 天前", "3 天前 2024-05-12~2024-05-12 exact"],
    ["两周前", "两周前 2024-04-28~2024-05-04 approximate"],
    ["两个星期以前", "两个星期以前 2024-04-28~2024-05-04 approximate"],
    ["一个月前", "一个月前 2024-03-31~2024-04-30 approximate"],
    ["半年前", "半年前 2023-10-31~2023-11-30 approximate"],
    ["一年前", "一年前 2022-11-15~2023-11-15 approximate"],
    ["几天前", "几天前 2024-05-08~2024-05-13 approximate"],
    ["前几天", "前几天 2024-05-08~2024-05-13 approximate"],
    // Rolling windows, widened to whole days; vague ones approximate.
    ["最近三天", "最近三天 2024-05-12~2024-05-15 exact"],
    ["过去一周", "过去一周 2024-05-08~2024-05-15 exact"],
    ["近两个月", "近两个月 2024-03-15~2024-05-15 exact"],
    ["近一年来", "近一年来 2023-05-15~2024-05-15 exact"],
    ["最近几周", "最近几周 2024-04-17~2024-05-15 approximate"],
    ["最近", "最近 2024-05-08~2024-05-15 approximate"],
    ["近期的部署", "近期 2024-05-08~2024-05-15 approximate"],
    ["这几天", "这几天 2024-05-08~2024-05-15 approximate"],
    // Quarters and halves.
    ["2024年第一季度", "2024年第一季度 2024-01-01~2024-03-31 exact"],
    ["看 第三季度", "第三季度 2023-07-01~2023-09-30 exact"],
    ["2024年Q2", "2024年Q2 2024-04-01~2024-06-30 exact"],
    ["上季度", "上季度 2024-01-01~2024-03-31 exact"],
    ["第三季度", "第三季度 2023-07-01~2023-09-30 exact"],
    ["去年下半年", "去年下半年 2023-07-01~2023-12-31 exact"],
    // Since and ranges.
    ["上周以来", "上周以来 2024-05-06~2024-05-15 exact"],
    ["从上周开始", "从上周开始 2024-05-06~2024-05-15 exact"],
    ["自从上个月", "自从上个月 2024-04-01~2024-05-15 exact"],
    ["5月1日到5月8日之间的部署", "5月1日到5月8日之间 2024-05-01~2024-05-08 exact"],
    ["2024-05-01至2024-05-08", "2024-05-01至2024-05-08 2024-05-01~2024-05-08 exact"],
    ["周一到周五", "周一到周五 2024-05-06~2024-05-10 exact"],
  ])("%s", (query, expected) => {
    expect(find(query)).toEqual(typeof expected === "string" ? [expected] : expected);
  });
});

describe("findTimeExpressions: English", () => {
  it.each([
    ["today", "today 2024-05-15~2024-05-15 exact"],
    ["what failed YESTERDAY?", "YESTERDAY 2024-05-14~2024-05-14 exact"],
    ["the day before yesterday", "the day before yesterday 2024-05-13~2024-05-13 exact"],
    ["tomorrow", "tomorrow 2024-05-16~2024-05-16 exact"],
    ["this morning", "this morning 2024-05-15~2024-05-15 exact"],
    ["last night", "last night 2024-05-14~2024-05-15 approximate"],
    ["last week", "last week 2024-05-06~2024-05-12 exact"],
    ["this week", "this week 2024-05-13~2024-05-19 exact"],
    ["the week before last", "the week before last 2024-04-29~2024-05-05 exact"],
    ["last weekend", "last weekend 2024-05-11~2024-05-12 exact"],
    ["over the weekend", "over the weekend 2024-05-11~2024-05-12 exact"],
    ["last month", "last month 2024-04-01~2024-04-30 exact"],
    ["this month", "this month 2024-05-01~2024-05-31 exact"],
    ["last year", "last year 2023-01-01~2023-12-31 exact"],
    ["this year", "this year 2024-01-01~2024-12-31 exact"],
    ["last quarter", "last quarter 2024-01-01~2024-03-31 exact"],
    ["last Wednesday", "last Wednesday 2024-05-08~2024-05-08 exact"],
    ["deployed on Wednesday", "on Wednesday 2024-05-08~2024-05-08 exact"],
    ["last Friday", "last Friday 2024-05-10~2024-05-10 exact"],
    ["this Friday", "this Friday 2024-05-17~2024-05-17 exact"],
    ["Wednesday last week", "Wednesday last week 2024-05-08~2024-05-08 exact"],
    ["Monday's standup", "Monday's 2024-05-13~2024-05-13 exact"],
    ["3 days ago", "3 days ago 2024-05-12~2024-05-12 exact"],
    ["three days ago", "three days ago 2024-05-12~2024-05-12 exact"],
    ["a day ago", "a day ago 2024-05-14~2024-05-14 exact"],
    ["two weeks ago", "two weeks ago 2024-04-28~2024-05-04 approximate"],
    ["a month ago", "a month ago 2024-03-31~2024-04-30 approximate"],
    ["a few days ago", "a few days ago 2024-05-08~2024-05-13 approximate"],
    ["the other day", "the other day 2024-05-08~2024-05-13 approximate"],
    ["recently", "recently 2024-05-08~2024-05-15 approximate"],
    ["what broke lately", "lately 2024-05-08~2024-05-15 approximate"],
    ["the past few days", "the past few days 2024-05-08~2024-05-15 approximate"],
    ["in recent weeks", "in recent weeks 2024-04-17~2024-05-15 approximate"],
    ["in the last 3 days", "in the last 3 days 2024-05-12~2024-05-15 exact"],
    ["past two weeks", "past two weeks 2024-05-01~2024-05-15 exact"],
    ["over the last month", "over the last month 2024-04-15~2024-05-15 exact"],
    ["last 30 days", "last 30 days 2024-04-15~2024-05-15 exact"],
    ["this past week", "this past week 2024-05-08~2024-05-15 exact"],
    ["in May 2023", "in May 2023 2023-05-01~2023-05-31 exact"],
    ["May 2023", "May 2023 2023-05-01~2023-05-31 exact"],
    ["May 8, 2023", "May 8, 2023 2023-05-08~2023-05-08 exact"],
    ["8 May 2023", "8 May 2023 2023-05-08~2023-05-08 exact"],
    ["the 8th of May", "the 8th of May 2024-05-08~2024-05-08 exact"],
    ["on May 8", "on May 8 2024-05-08~2024-05-08 exact"],
    ["May 8 deploy", "May 8 2024-05-08~2024-05-08 exact"],
    ["in May", "in May 2024-05-01~2024-05-31 exact"],
    ["in june", "in june 2023-06-01~2023-06-30 exact"],
    ["last May", "last May 2023-05-01~2023-05-31 exact"],
    ["Dec 5", "Dec 5 2023-12-05~2023-12-05 exact"],
    ["Jan. 2024", "Jan. 2024 2024-01-01~2024-01-31 exact"],
    ["in 2023", "in 2023 2023-01-01~2023-12-31 exact"],
    ["2023-05-08", "2023-05-08 2023-05-08~2023-05-08 exact"],
    ["at 2024-05-08T10:00:00Z", "at 2024-05-08T10:00:00Z 2024-05-08~2024-05-08 exact"],
    ["2024/5/8", "2024/5/8 2024-05-08~2024-05-08 exact"],
    ["Q1 2024", "Q1 2024 2024-01-01~2024-03-31 exact"],
    ["earlier this week", "earlier this week 2024-05-13~2024-05-15 approximate"],
    ["early May 2023", "early May 2023 2023-05-01~2023-05-31 approximate"],
    ["late May 2023", "late May 2023 2023-05-01~2023-05-31 approximate"],
    ["mid-May", "mid-May 2024-05-01~2024-05-31 approximate"],
    ["since last week", "since last week 2024-05-06~2024-05-15 exact"],
    ["between May 1 and May 8", "between May 1 and May 8 2024-05-01~2024-05-08 exact"],
    ["from March to May", "from March to May 2024-03-01~2024-05-31 exact"],
    ["from 2022 to 2023", "from 2022 to 2023 2022-01-01~2023-12-31 exact"],
    ["from Monday to Wednesday", "from Monday to Wednesday 2024-05-13~2024-05-15 exact"],
    ["2024-01-01~2024-01-31", "2024-01-01~2024-01-31 2024-01-01~2024-01-31 exact"],
  ])("%s", (query, expected) => {
    expect(find(query)).toEqual([expected]);
  });
});

describe("findTimeExpressions: no false positives", () => {
  it.each([
    // English: the verb "may", bare numbers, words that contain time words.
    "May I deploy now?",
    "maybe later",
    "you may want to check the logs",
    "test 3 may fail",
    "the weekend deploy script",
    "3 days",
    "version 2023.5",
    "v1.2023.05",
    "2023 rows were deleted",
    "port 2023",
    "in 2000 ms",
    "every Wednesday",
    "we deploy on Sundays",
    "the past tense",
    "last 3 deploys",
    "at last it works",
    "the last deploy",
    "before May",
    "after 2020",
    "we march on",
    "a week",
    "weekly report",
    "one day we will",
    "todays", // not "today"
    // Chinese: 周/月/天/年 inside other words, counts of weeks, habits.
    "周报",
    "周期任务",
    "一周三次",
    "两周一次的会议",
    "每周三开会",
    "三天",
    "3天的任务",
    "一个月",
    "月报",
    "每月一次",
    "一月一次",
    "年度总结",
    "晚上周报",
    "线上周报",
    "看一下周报",
    "马上周末了",
    "以前天气很好",
    "以上周期",
    "上一周期",
    "成本月报",
    "最近邻搜索",
    "最近一次部署",
    "接近三天",
    "说明天气",
    "三天前端",
    "2023年代",
    "版本2023.5",
    "Q3 目标",
    "2月30日",
    "13月",
  ])("%s", (query) => {
    expect(find(query)).toEqual([]);
  });
});

describe("findTimeExpressions: several and overlapping", () => {
  it("reports 上周 once in 上周的周报", () => {
    expect(find("上周的周报")).toEqual(["上周 2024-05-06~2024-05-12 exact"]);
  });

  it("does not read 一共 / 日志 / 天气 after 上周 as a weekday", () => {
    for (const query of ["上周一共部署了5次", "上周日志", "上周天气"]) {
      expect(find(query)).toEqual(["上周 2024-05-06~2024-05-12 exact"]);
    }
  });

  it("returns expressions in query order, longest reading winning", () => {
    expect(find("昨天和上周三的部署")).toEqual([
      "昨天 2024-05-14~2024-05-14 exact",
      "上周三 2024-05-08~2024-05-08 exact",
    ]);
    expect(find("failed the day before yesterday, fixed yesterday")).toEqual([
      "the day before yesterday 2024-05-13~2024-05-13 exact",
      "yesterday 2024-05-14~2024-05-14 exact",
    ]);
    expect(find("2023年5月8日和5月")).toEqual([
      "2023年5月8日 2023-05-08~2023-05-08 exact",
      "5月 2024-05-01~2024-05-31 exact",
    ]);
  });

  it("handles mixed Chinese and English", () => {
    expect(find("last week 的 deploy 和上个月的")).toEqual([
      "last week 2024-05-06~2024-05-12 exact",
      "上个月 2024-04-01~2024-04-30 exact",
    ]);
  });

  it("reports where each expression starts", () => {
    const [first] = findTimeExpressions("每周三和周三", REFERENCE);
    expect(first).toMatchObject({ text: "周三", index: 4 });
  });
});

describe("findTimeExpressions: hours", () => {
  it("keeps hour windows as instants", () => {
    expect(find("the past 24 hours")).toEqual([
      "the past 24 hours 2024-05-14T10:00:00.000Z~2024-05-15T10:00:00.000Z exact",
    ]);
    expect(find("过去24小时")).toEqual([
      "过去24小时 2024-05-14T10:00:00.000Z~2024-05-15T10:00:00.000Z exact",
    ]);
    expect(find("2 hours ago")).toEqual([
      "2 hours ago 2024-05-15T07:00:00.000Z~2024-05-15T09:00:00.000Z approximate",
    ]);
  });
});

describe("findTimeExpressions: time zones and week starts", () => {
  // 2024-05-14T20:00Z is already 15 May, 04:00, in Shanghai (UTC+8).
  const EARLY_SHANGHAI = new Date("2024-05-14T20:00:00Z");

  it("bounds days by local midnights in Asia/Shanghai", () => {
    const [yesterday] = findTimeExpressions("昨天", EARLY_SHANGHAI, { timeZone: "Asia/Shanghai" });
    expect(yesterday).toMatchObject({
      from: new Date("2024-05-13T16:00:00.000Z"),
      to: new Date("2024-05-14T15:59:59.999Z"),
    });
    // The same instant in UTC is still 14 May, so yesterday is the 13th.
    const [utc] = findTimeExpressions("昨天", EARLY_SHANGHAI);
    expect(utc?.from).toEqual(new Date("2024-05-13T00:00:00.000Z"));
  });

  it("bounds weeks and dates by local midnights in Asia/Shanghai", () => {
    const found = findTimeExpressions("上周和5月8日", EARLY_SHANGHAI, {
      timeZone: "Asia/Shanghai",
    });
    expect(found.map(({ from, to }) => [from.toISOString(), to.toISOString()])).toEqual([
      ["2024-05-05T16:00:00.000Z", "2024-05-12T15:59:59.999Z"],
      ["2024-05-07T16:00:00.000Z", "2024-05-08T15:59:59.999Z"],
    ]);
  });

  it("follows daylight saving time (New York, 10 March 2024 had 23 hours)", () => {
    const [yesterday] = findTimeExpressions("yesterday", new Date("2024-03-11T12:00:00Z"), {
      timeZone: "America/New_York",
    });
    expect(yesterday).toMatchObject({
      from: new Date("2024-03-10T05:00:00.000Z"),
      to: new Date("2024-03-11T03:59:59.999Z"),
    });
  });

  it("starts weeks on Sunday when asked", () => {
    expect(find("上周", { weekStartsOn: 0 })).toEqual(["上周 2024-05-05~2024-05-11 exact"]);
    expect(find("this week", { weekStartsOn: 0 })).toEqual([
      "this week 2024-05-12~2024-05-18 exact",
    ]);
    expect(find("上周日", { weekStartsOn: 0 })).toEqual(["上周日 2024-05-05~2024-05-05 exact"]);
  });

  it("goes back to the last leap year for 2月29日", () => {
    const [found] = findTimeExpressions("2月29日", new Date("2025-05-15T10:00:00Z"));
    expect(found && show(found)).toBe("2月29日 2024-02-29~2024-02-29 exact");
  });

  it("rejects an unknown zone and an invalid reference", () => {
    expect(() => findTimeExpressions("today", REFERENCE, { timeZone: "Mars/Olympus" })).toThrow(
      RangeError,
    );
    expect(() => findTimeExpressions("today", new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("findTimeExpressions: invariants on generated queries", () => {
  // Fragments of time words and their look-alikes, glued at random (deterministic LCG).
  const FRAGMENTS = [
    "上",
    "周",
    "三",
    "天",
    "前",
    "月",
    "年",
    "去",
    "今",
    "最近",
    "过去",
    "两",
    "个",
    "的",
    "日",
    "号",
    "5",
    "2023",
    "-",
    "~",
    "到",
    "以来",
    "从",
    "季度",
    "第",
    "May",
    "may",
    "last",
    "week",
    "in",
    "the",
    "on",
    "ago",
    "3",
    "days",
    "since",
    "Wednesday",
    " ",
    "早",
    "晚",
    "一",
    "十",
    "半",
    "几",
    "weekend",
    "early",
    "to",
    "and",
    "past",
    "few",
    "hours",
    "24",
    "小时",
    "2024-05-08",
    "Q1",
  ];
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const queries = Array.from({ length: 2000 }, () =>
    Array.from({ length: 1 + next(10) }, () => FRAGMENTS[next(FRAGMENTS.length)]).join(""),
  );

  it("returns ordered, non-overlapping, trimmed matches with from ≤ to", () => {
    let total = 0;
    for (const query of queries) {
      for (const timeZone of ["UTC", "Asia/Shanghai"]) {
        let end = 0;
        for (const found of findTimeExpressions(query, REFERENCE, { timeZone })) {
          total++;
          expect(query.slice(found.index, found.index + found.text.length)).toBe(found.text);
          expect(found.text).toBe(found.text.trim());
          expect(found.index).toBeGreaterThanOrEqual(end);
          expect(found.from.getTime()).toBeLessThanOrEqual(found.to.getTime());
          end = found.index + found.text.length;
        }
      }
    }
    expect(total).toBeGreaterThan(500); // the generator does produce time expressions
  });
});

describe("stripTimeExpressions", () => {
  it.each([
    ["上周的周报", "周报"],
    ["上周三部署失败的原因", "部署失败的原因"],
    ["最近三天 k8s 部署失败", "k8s 部署失败"],
    ["what failed yesterday?", "what failed?"],
    ["deploy yesterday failed", "deploy failed"],
    ["last week's report", "report"],
    ["Deploy failed in the last 3 days, port 8080", "Deploy failed, port 8080"],
    ["yesterday, what broke?", "what broke?"],
    ["yesterday", ""],
    ["  no   time here ", "no time here"],
  ])("%s → %s", (query, expected) => {
    expect(stripTimeExpressions(query, findTimeExpressions(query, REFERENCE))).toBe(expected);
  });

  it("finds the text again when the index does not match the query", () => {
    const [found] = findTimeExpressions("yesterday", REFERENCE);
    expect(stripTimeExpressions("logs from yesterday", found ? [{ ...found, index: 0 }] : [])).toBe(
      "logs from",
    );
  });
});

describe("periodsMeant", () => {
  const meant = (query: string) => periodsMeant(findTimeExpressions(query, REFERENCE)).map(show);
  it.each([
    // Recent as of the period the query dates, not of now.
    ["the cake she made recently, in March 2023", ["in March 2023 2023-03-01~2023-03-31 exact"]],
    ["最近在 2023 年 3 月做的蛋糕", ["2023 年 3 月 2023-03-01~2023-03-31 exact"]],
    ["what did I deploy recently, last week?", ["last week 2024-05-06~2024-05-12 exact"]],
    // Alone, the last days.
    ["what did I deploy recently?", ["recently 2024-05-08~2024-05-15 approximate"]],
    ["最近部署了什么", ["最近 2024-05-08~2024-05-15 approximate"]],
    // Other vague periods are kept beside a date.
    [
      "last night and on 3 May",
      ["last night 2024-05-14~2024-05-15 approximate", "on 3 May 2024-05-03~2024-05-03 exact"],
    ],
  ])("%s", (query, expected) => {
    expect(meant(query)).toEqual(expected);
  });
});
