import { describe, expect, it } from "vitest";
import { stem } from "../../text/stem.js";
import { wordTokens } from "../../text/tokenize.js";
import {
  currentSearchText,
  namesSubject,
  queryClauses,
  queryTerms,
  searchDocument,
  searchText,
  searchTokens,
  withCalendarWords,
  withUnitWords,
} from "./search-text.js";

describe("search text", () => {
  it("keeps stemmed words, the memory's own apart from its context's", () => {
    const text = searchText(
      ["conversation", "Caroline: Yes, last Tuesday!"],
      "Mel: When did you go hiking?",
    );
    expect(text).toBe("convers carolin ye last 周二 | mel when did you go hike");
    expect(searchDocument(text)).toEqual({
      own: ["convers", "carolin", "ye", "last", "周二"],
      context: ["mel", "when", "did", "you", "go", "hike"],
    });
    expect(searchTokens(text)).toHaveLength(11);
  });

  it("has no context part without a context", () => {
    const text = searchText(["部署到 GitHub 失败了"]);
    expect(text).not.toContain("|");
    expect(searchDocument(text).context).toEqual([]);
    expect(searchDocument("")).toEqual({ own: [], context: [] });
  });
});

describe("calendar words in search", () => {
  it("lets an English question about a weekday evening find a Chinese memory's words", () => {
    const memory = searchDocument(searchText(["用户说每周五晚上固定和朋友打羽毛球"])).own;
    const query = queryTerms("Is Friday evening free for a call?");
    expect(query.filter((term) => memory.includes(term))).toEqual(["周五", "晚上"]);
    expect(queryTerms("星期五晚上有空吗")).toEqual(expect.arrayContaining(["周五", "晚上"]));
  });

  it("upgrades a search text stored before them, own words and context", () => {
    const summary = "Moved the sync to Friday evening";
    const context = "Mel: still on Tuesday mornings at 9am?";
    // What the tokenizer wrote before calendar words: stems of the segmenter's words.
    const old = (text: string) => wordTokens(text).map(stem);
    const stored = [...old(summary), "|", ...old(context)].join(" ");
    expect(stored).toContain("fridai even");
    expect(withCalendarWords(stored, summary)).toBe(searchText([summary], context));
    const current = searchText([summary], context);
    expect(withCalendarWords(current, summary)).toBe(current);
  });
});

describe("units of measure in search", () => {
  it("lets a question in one unit's form find a memory in another", () => {
    const memory = searchDocument(searchText(["我表妹身高有164厘米"])).own;
    const query = queryTerms("那身高164cm的人是做什么的呀？");
    expect(query.filter((term) => memory.includes(term))).toEqual(["身高", "164", "厘米"]);
    const run = searchDocument(searchText(["Ran 5 kilometers before work"])).own;
    expect(queryTerms("Who ran 5km?").filter((term) => run.includes(term))).toEqual([
      "ran",
      "5",
      "公里",
    ]);
  });

  it("upgrades a search text stored before them, own words and context", () => {
    const summary = "Ran 5km in 30 mins";
    const context = "Mel: she is 164cm?";
    // What the tokenizer wrote before units had one form: glued tokens, stemmed words.
    const stored = "ran 5km in 30 min | mel she is 164cm";
    expect(withUnitWords(stored)).toBe(searchText([summary], context));
    expect(currentSearchText(stored, summary)).toBe(searchText([summary], context));
    const current = searchText([summary], context);
    expect(withUnitWords(current)).toBe(current);
  });
});

describe("queryTerms", () => {
  it("drops the words that only shape a question, in English and Chinese", () => {
    expect(queryTerms("What did Caroline paint last summer?")).toEqual([
      "carolin",
      "paint",
      "last",
      "summer",
    ]);
    expect(queryTerms("我上司叫什么来着？")).toEqual(["上司", "叫"]);
  });

  it("keeps every word when nothing else is left, once each", () => {
    expect(queryTerms("Who is he? Who?")).toEqual(["who", "is", "he"]);
  });
});

const terms = (clauses: ReturnType<typeof queryClauses>) => clauses.map((clause) => clause.terms);

describe("queryClauses", () => {
  it("splits a query that asks several questions", () => {
    expect(terms(queryClauses("我上司的邮箱是多少来着？另外，我的手机是什么型号？"))).toEqual([
      ["上司", "邮箱"],
      ["手机", "型号"],
    ]);
    expect(terms(queryClauses("Where does Mel live? And when is her birthday?"))).toEqual([
      ["mel", "live"],
      ["birthdai"],
    ]);
    expect(queryClauses("Where does Mel live? And when is her birthday?")[1]!.text).toBe(
      "And when is her birthday",
    );
  });

  it("is empty for one question, or when the others hold only question words", () => {
    expect(queryClauses("What did Caroline paint in 3.5 hours?")).toEqual([]);
    expect(queryClauses("Did Caroline paint it? Why?")).toEqual([]);
  });
});

describe("namesSubject", () => {
  it("is false for a query made of question words only", () => {
    expect(namesSubject("what did I do")).toBe(false);
    expect(namesSubject("做了什么")).toBe(false);
    expect(namesSubject("which credentials did I rotate")).toBe(true);
    expect(namesSubject("部署失败了吗")).toBe(true);
  });
});
