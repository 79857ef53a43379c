/**
 * Words that say what kind of question is asked, not what it is about: "what did she say
 * about …", "我上司叫什么来着". They are left out of a query's keywords (they stay in the
 * index: a memory's own words are never dropped), so that BM25 is carried by the words that
 * name the subject, and keyword candidates are not fetched for "the" or "的".
 * Queries are filtered before stemming, so the words are listed as written.
 */
const ENGLISH = `a about after again all also am an and any are as at be been before being
both but by can could did do does doing done during each else ever for from had has have
having he her here hers herself him himself his how i if in into is it its itself just me
might my myself no nor not now of off on once only or other our ours ourselves out over own
same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what whatever when where
whether which while who whom whose why will with would you your yours yourself yourselves`;

const CHINESE = `我 你 您 他 她 它 我们 你们 他们 她们 咱们 我的 你的 您的 他的 她的 它的 我们的 的 地 得 了 着 过 是 吗 呢 啊 吧 呀 嘛
么 什么 啥 哪 哪里 哪儿 哪个 哪些 谁 多少 几 怎么 怎样 如何 为什么 为何 来着 另外 还有 以及
和 与 跟 及 或 或者 在 有 这 那 这个 那个 这些 那些 个 也 都 就 还 又 请问 一下 告诉 做 做了 干 干了 干嘛`;

const WORDS = new Set([...ENGLISH.split(/\s+/), ...CHINESE.split(/\s+/)].filter(Boolean));

export function isStopWord(token: string): boolean {
  return WORDS.has(token);
}
