import { describe, expect, it } from "vitest";
import {
  namesSubject,
  queryClauses,
  queryTerms,
  searchDocument,
  searchText,
  searchTokens,
} from "./search-text.js";

describe("search text", () => {
  it("keeps stemmed words, the memory's own apart from its context's", () => {
    const text = searchText(
      ["conversation", "Caroline: Yes, last Tuesday!"],
      "Mel: When did you go hiking?",
    );
    expect(text).toBe("convers carolin ye last tuesdai | mel when did you go hike");
    expect(searchDocument(text)).toEqual({
      own: ["convers", "carolin", "ye", "last", "tuesdai"],
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
