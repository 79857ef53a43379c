/**
 * Building the page from data without ever parsing it as HTML: stored memories were written by
 * earlier conversations and may contain anything, so text always goes in as text.
 */
type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | ((event: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/** Text with the query's words marked: matching is case-insensitive, on whole text runs. */
export function highlighted(text: string, words: readonly string[]): Node[] {
  const wanted = words.filter((word) => word.length > 1).map(escapeRegExp);
  if (wanted.length === 0) return [document.createTextNode(text)];
  // split() with a capturing group alternates text and matches: odd parts are matches.
  const parts = text.split(new RegExp(`(${wanted.join("|")})`, "giu"));
  return parts.flatMap((part, index) =>
    part === "" ? [] : [index % 2 === 1 ? h("mark", {}, part) : document.createTextNode(part)],
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The words of a query worth marking: Latin words and runs of CJK characters. */
export function queryWords(query: string): string[] {
  return query.match(/[\p{L}\p{N}]+/gu) ?? [];
}
