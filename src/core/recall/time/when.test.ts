import { describe, expect, it } from "vitest";
import { searchTerms } from "../search-text.js";
import { asksWhen, namesTime } from "./when.js";

describe("asksWhen", () => {
  it("reads English questions that start by asking for a time", () => {
    for (const question of [
      "When did Nate win his third tournament?",
      "  when was the last deploy",
      "When's the review?",
      "when and where does the board meet next?",
      "And when is the meeting?",
      "What year did Joanna start writing?",
      "Which month was the outage in?",
      "In what year did we migrate?",
      "How long ago did the build break?",
      "Since when has billing failed?",
    ]) {
      expect(asksWhen(question), question).toBe(true);
    }
  });

  it("leaves out questions where when is a conjunction, or that ask for something else", () => {
    for (const question of [
      "What did I do when the build failed?",
      "when the card processor was down, how did we cope?",
      "How long did the migration take?",
      "Where does my boss live?",
      "What time-saving tricks did we find?",
      "Whenever the job runs, what breaks?",
    ]) {
      expect(asksWhen(question), question).toBe(false);
    }
  });

  it("reads Chinese questions that ask for a time anywhere in them", () => {
    for (const question of [
      "我表哥是哪天过生日来着？",
      "上次部署是什么时候？",
      "会议几点开始？",
      "你哪一年毕业的？",
    ]) {
      expect(asksWhen(question), question).toBe(true);
    }
    expect(asksWhen("我上司叫什么名字？")).toBe(false);
    expect(asksWhen("工单多久要回复？")).toBe(false);
  });
});

describe("namesTime", () => {
  const names = (text: string) => namesTime(searchTerms(text));

  it("finds days, periods, dates and clock times in English", () => {
    for (const text of [
      "I won another tournament last week",
      "We went camping yesterday",
      "The migration finished in 2023",
      "Deploys are frozen on Fridays",
      "Three months ago the pipeline broke",
      "The call is at 9am",
      "I met her on the 15th",
      "We shipped it back in October",
    ]) {
      expect(names(text), text).toBe(true);
    }
  });

  it("finds them in Chinese, whether the segmenter keeps them whole or apart", () => {
    for (const text of [
      "我昨天去了上海",
      "上周三开会讨论了预算",
      "2023年5月8日入职",
      "我们两周前见过面",
      "三天前部署失败了",
      "星期六下午三点见",
      "上个月换了工作",
    ]) {
      expect(names(text), text).toBe(true);
    }
  });

  it("says no for text that places nothing in time", () => {
    for (const text of [
      "The billing service failed on a null customer id",
      "Have a nice day!",
      "You may want to retry",
      "我喜欢在杭州工作",
      "我们聊天聊了很久",
    ]) {
      expect(names(text), text).toBe(false);
    }
  });
});
