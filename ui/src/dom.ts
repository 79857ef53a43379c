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

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element, built like `h` builds HTML ones: text as text, never markup. */
export function svg(
  tag: string,
  attributes: Record<string, string | number> = {},
  ...children: (Node | string | null)[]
): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) {
    if (child !== null) element.append(child);
  }
  return element;
}

/**
 * A long operation under way: a progress bar and the seconds it has run. The server answers
 * once, at the end, so the bar cannot know how far along it is; the clock shows it is alive.
 */
export function progress(label: string): HTMLElement {
  const seconds = h("span", {}, "0 s");
  const element = h(
    "p",
    { class: "progress", role: "status" },
    h("progress", { "aria-label": label }),
    ` ${label} `,
    seconds,
  );
  const started = Date.now();
  const timer = setInterval(() => {
    if (!element.isConnected && Date.now() - started > 1000) return clearInterval(timer);
    seconds.textContent = `${Math.round((Date.now() - started) / 1000)} s`;
  }, 500);
  return element;
}

/** An ISO 8601 instant as a person reads it: `2026-12-02 17:50:46` (UTC, to the second). */
export function dateTime(
  iso: string | null | undefined,
  precision: "minute" | "second" = "second",
): string {
  if (!iso) return "—";
  return iso.slice(0, precision === "minute" ? 16 : 19).replace("T", " ");
}
