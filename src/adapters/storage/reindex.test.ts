import { describe, expect, it } from "vitest";
import { searchText } from "../../core/recall/search-text.js";
import { wordTokens } from "../../text/tokenize.js";
import { restemmedSearchText } from "./reindex.js";

/** What the tokenizer wrote before stemming: the same words, unstemmed. */
const unstemmed = (parts: string[], context?: string) => {
  const own = parts.flatMap(wordTokens);
  const around = context ? wordTokens(context) : [];
  return (around.length > 0 ? [...own, "|", ...around] : own).join(" ");
};

describe("restemmedSearchText", () => {
  const summary = "Caroline went hiking with friends";
  const context = "Melanie: did you go camping?";

  it("stems every word, context included, of a row written before stemming", () => {
    const old = unstemmed(["conversation", summary], context);
    expect(old).toContain("hiking");
    expect(restemmedSearchText(old, summary)).toBe(searchText(["conversation", summary], context));
  });

  it("leaves a current row alone, though stemming again would change it", () => {
    const current = searchText(["conversation", "We agreed on hiking"]);
    expect(current).toContain("agre"); // stem("agre") is "agr": stemming is not idempotent
    expect(restemmedSearchText(current, "We agreed on hiking")).toBeUndefined();
  });

  it("leaves a row whose own words stemming does not change, and Chinese", () => {
    expect(restemmedSearchText("port | hiking", "port")).toBeUndefined();
    const chinese = "用户偏好用中文回复";
    expect(restemmedSearchText(unstemmed([chinese]), chinese)).toBeUndefined();
  });
});
