import { describe, expect, it } from "vitest";
import { calendarWords, separateCalendarWords, upgradeStoredTerms } from "./calendar-words.js";
import { stem } from "./stem.js";
import { wordTokens } from "./tokenize.js";

const words = (text: string) => calendarWords(wordTokens(separateCalendarWords(text)));

describe("calendar words", () => {
  it("writes a weekday one way in either language and every Chinese variant", () => {
    for (const text of [
      "Friday",
      "fridays",
      "周五",
      "星期五",
      "礼拜五",
      "每周五",
      "这周五",
      "下周五",
    ]) {
      expect(words(text), text).toContain("周五");
    }
    expect(words("星期天")).toEqual(["周日"]);
    expect(words("礼拜天")).toEqual(["周日"]);
    expect(words("Sunday")).toEqual(["周日"]);
  });

  it("keeps the word before a weekday the segmenter had joined to it", () => {
    expect(words("每周五晚上打羽毛球")).toEqual(["每", "周五", "晚上", "打", "羽毛球"]);
    expect(words("每周一例会")).toContain("周一");
  });

  it("does not read a count of weeks or days as a weekday", () => {
    expect(words("每周一次")).not.toContain("周一");
    expect(words("一周三天在家办公")).not.toContain("周三");
  });

  it("writes the parts of the day one way", () => {
    expect(words("every morning")).toContain("上午");
    expect(words("早上九点")).toContain("上午");
    expect(words("Saturday afternoon")).toEqual(["周六", "下午"]);
    expect(words("in the evening")).toContain("晚上");
    expect(words("at noon")).toContain("中午");
  });

  it("writes a month one way: its English name, digits or Chinese numerals", () => {
    for (const text of [
      "April",
      "4月",
      "4 月份",
      "04月",
      "四月",
      "四月份",
      "２０２４年４月１４日",
    ]) {
      expect(words(text), text).toContain("四月");
    }
    expect(words("2024年12月3日")).toEqual(["2024", "年", "十二月", "3", "日"]);
    expect(words("December")).toEqual(["十二月"]);
  });

  it("does not read a count of months, another number or the verb 'may' as a month", () => {
    expect(words("3个月")).not.toContain("三月");
    expect(words("等了14月")).not.toContain("四月");
    expect(words("we may ship it")).toEqual(["we", "may", "ship", "it"]);
  });

  it("reads am and pm after an hour only", () => {
    expect(words("a call at 8:30 am")).toEqual(["a", "call", "at", "8", "30", "上午"]);
    expect(words("9am stand-up")).toEqual(["9", "上午", "stand", "up"]);
    expect(words("back by 10 PM")).toEqual(["back", "by", "10", "下午"]);
    expect(words("I am at home")).toEqual(["i", "am", "at", "home"]);
  });

  it("leaves other words alone, the adverb 'even' included", () => {
    expect(words("even the deploy failed")).toEqual(["even", "the", "deploy", "failed"]);
  });
});

describe("upgradeStoredTerms", () => {
  /** What the tokenizer wrote before calendar words: stems of the segmenter's words. */
  const stored = (text: string) => wordTokens(text).map(stem);
  const current = (text: string) => words(text).map(stem);

  it("gives what the current tokenizer gives, from the stored terms alone", () => {
    for (const text of [
      "Moved the sync to Friday mornings, 9am sharp",
      "用户每周五晚上固定和朋友打羽毛球，这个时间不要安排会议",
      "星期天早上去游泳，礼拜五下午开会",
      "每周一次复盘，一周三天在家办公",
      "Standup at 10 am on Mondays; I am the host",
      "Flight to Tokyo for the April conference, departing 14 April",
      "2024年4月14日出发，五一前回来，十二月份再去，要等3个月",
    ]) {
      expect(upgradeStoredTerms(stored(text), false), text).toEqual(current(text));
    }
  });

  it("maps a stored 'even' only when it stood for 'evening'", () => {
    expect(upgradeStoredTerms(stored("Friday evening"), true)).toEqual(current("Friday evening"));
    expect(upgradeStoredTerms(stored("even on Friday"), false)).toEqual(current("even on Friday"));
  });

  it("leaves current terms as they are", () => {
    const text = "每周五晚上 Friday 8:30 am evening";
    expect(upgradeStoredTerms(current(text), false)).toEqual(current(text));
  });
});
