/**
 * The default model's tokenizer, loaded without transformers.js's character trie
 * (src/adapters/embedders/unigram-tokenizer.mjs), must split every text exactly as the
 * library's own AutoTokenizer does: stored vectors were computed one way and queries are
 * embedded the other, so one differing id would move a memory in every ranking. Compared on
 * the bilingual fixture sets and on texts that exercise what a Unigram tokenizer treats
 * specially (special tokens, unknown characters, normalisation, surrogates, truncation), read
 * from the vocabulary file `fetch-model` derives (tokenizer.unigram.bin) and from
 * tokenizer.json alone.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript beside the worker, without declarations of its argument
import { loadUnigramTokenizer } from "../src/adapters/embedders/unigram-tokenizer.mjs";
import {
  decodeVocabulary,
  encodeVocabulary,
  vocabularyArrays,
  // @ts-expect-error plain JavaScript, as above
} from "../src/adapters/embedders/unigram-vocabulary.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODELS = process.env.HINDSIGHT_TEST_MODELS_DIR || path.join(ROOT, ".cache", "models");
const E5 = path.join(MODELS, "multilingual-e5-small-q4");
const MINILM = path.join(MODELS, "all-minilm-l6-v2-int8");
const present = existsSync(path.join(E5, "tokenizer.json"));
const inCi = process.env.CI === "true";

/** What both tokenizers are asked: a text's ids, special tokens included. */
type Ids = (text: string) => number[];
type Tokenizers = typeof import("@huggingface/tokenizers");
type Standalone = InstanceType<Tokenizers["Tokenizer"]>;

const EDGE_CASES = [
  "",
  " ",
  "a",
  "Deploy failed: port 8080 already in use",
  "passage: conversation: Caroline: I went to a LGBTQ support group yesterday.",
  "query: 我穿在脚上的运动鞋是哪一双？",
  "<s> begins </s> ends <mask> <pad> <unk> inside text",
  "emoji 😀👍🏽🇨🇳 and a lone surrogate \ud83d here",
  "ＡＢＣ　全角，半角 ｶﾀｶﾅ ① ㈱ ﬁ ½",
  "combining: e\u0301 and precomposed é; Ünïcödé façade naïve",
  "  many   spaces\tand\ttabs\nand\r\nnewlines  ",
  "zero\u200bwidth\u00a0nbsp\ufeffbom",
  "Ελληνικά, русский, العربية, עברית, हिन्दी, 한국어, ไทย, 日本語のテキスト",
  "rare CJK 𠀀𪚥 and private use \ue000",
  'code: `const x = a?.b ?? c;` <div class="x">&amp;</div> https://example.com/a?b=1',
  "1234567890 3.14159 -42 1e10 0x1F 2026-12-04T02:14:24Z",
  "supercalifragilisticexpialidocious antidisestablishmentarianism",
  "word ".repeat(700),
  "长".repeat(1200),
];

async function fixtureTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const name of ["paraphrase-set.json", "regression-set.json"]) {
    const set = JSON.parse(await readFile(path.join(ROOT, "test", "fixtures", name), "utf8")) as {
      memories: Record<string, unknown>[];
      queries: { query_text: string }[];
    };
    for (const memory of set.memories) {
      for (const field of ["summary", "key_text", "value_text", "task_type"]) {
        if (typeof memory[field] === "string") texts.push(memory[field]);
      }
    }
    for (const query of set.queries) texts.push(query.query_text);
  }
  return texts;
}

describe.runIf(!present && inCi)("the default model's tokenizer under CI", () => {
  it("is fetched before the tests run", () => {
    expect.fail(`run npm run fetch:model first: no multilingual-e5-small-q4 in ${MODELS}`);
  });
});

describe.skipIf(!present)("a Unigram tokenizer loaded without its trie", () => {
  let tokenizers: Tokenizers;
  let fast: Ids;
  let library: Ids;
  let fastStandalone: Standalone;
  /** The library's own standalone Tokenizer, built from tokenizer.json with its full trie. */
  let libraryStandalone: Standalone;
  const idsOf =
    (tokenizer: Standalone): Ids =>
    (text) =>
      tokenizer.encode(text).ids;
  beforeAll(async () => {
    tokenizers = await import("@huggingface/tokenizers");
    fastStandalone = await loadUnigramTokenizer(tokenizers, E5);
    fast = idsOf(fastStandalone);
    const read = async (file: string) => JSON.parse(await readFile(path.join(E5, file), "utf8"));
    libraryStandalone = new tokenizers.Tokenizer(
      await read("tokenizer.json"),
      await read("tokenizer_config.json"),
    );
    // transformers.js's own AutoTokenizer, as the embedder used before: the reference.
    const transformers = await import("@huggingface/transformers");
    transformers.env.allowRemoteModels = false;
    transformers.env.localModelPath = MODELS;
    const auto = await transformers.AutoTokenizer.from_pretrained("multilingual-e5-small-q4");
    library = (text) =>
      Array.from(
        (auto as unknown as (text: string) => { input_ids: { data: BigInt64Array } })(text)
          .input_ids.data,
        Number,
      );
  });

  const ids = (tokenizer: Ids, text: string) => tokenizer(text);

  it("gives the library's token ids for every text", async () => {
    const texts = [...EDGE_CASES, ...(await fixtureTexts())];
    expect(texts.length).toBeGreaterThan(300);
    const differing = texts.filter(
      (text) => ids(fast, text).join(",") !== ids(library, text).join(","),
    );
    expect(differing).toEqual([]);
  });

  it("knows the whole vocabulary, special tokens and the unknown piece", () => {
    // A word only in the full vocabulary: the stand-in it was built from has four pieces.
    expect(ids(fast, "passage: 运动鞋").length).toBeGreaterThan(3);
    expect(ids(fast, "hello")).toEqual(ids(library, "hello"));
    const [first, ...rest] = ids(fast, "hello");
    expect(first).toBe(0); // <s>
    expect(rest.at(-1)).toBe(2); // </s>
    expect(ids(fast, "\ue000")).toEqual(ids(library, "\ue000"));
  });

  it.runIf(inCi)("reads the vocabulary fetch-model derived", async () => {
    // Whole, of this layout and made from this tokenizer.json: read, not passed over for it.
    const derived = decodeVocabulary(await readFile(path.join(E5, "tokenizer.unigram.bin")));
    expect(derived?.header.source_bytes).toBe((await stat(path.join(E5, "tokenizer.json"))).size);
    expect(derived?.order.length).toBe(250_002);
  });

  /** A model directory of links to the default model's tokenizer files, and `derived` if given. */
  async function tokenizerDir(derived?: Uint8Array): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "hindsight-unigram-"));
    for (const file of ["tokenizer.json", "tokenizer_config.json"]) {
      await symlink(path.join(E5, file), path.join(dir, file));
    }
    if (derived !== undefined) await writeFile(path.join(dir, "tokenizer.unigram.bin"), derived);
    return dir;
  }

  it("reads tokenizer.json when the derived vocabulary is missing, made from another file, cut short or of another layout", async () => {
    const texts = [...EDGE_CASES.slice(0, 12), ...(await fixtureTexts()).slice(0, 60)];
    const { size } = await stat(path.join(E5, "tokenizer.json"));
    // Made from a file of another size, with pieces of its own: used, it would give other ids.
    const stale = encodeVocabulary(
      { source: "tokenizer.json", source_bytes: size + 1, tokenizer: {} },
      vocabularyArrays(["b", "a", "<unk>", "c"], [0, 0, -1, -2]),
    );
    const whole = await readFile(path.join(E5, "tokenizer.unigram.bin"));
    // Cut short while written: the header says the right size, the rest is gone.
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    // The text layout of before, one piece per line.
    const older = Buffer.from(`${JSON.stringify({ source_bytes: size })}\n[0]\n<unk>\n`);
    for (const derived of [undefined, stale, cut, older]) {
      const dir = await tokenizerDir(derived);
      try {
        const tokenizer = idsOf(await loadUnigramTokenizer(tokenizers, dir));
        const differing = texts.filter(
          (text) => ids(tokenizer, text).join(",") !== ids(library, text).join(","),
        );
        expect(differing).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it("decodes ids back to the library's pieces, added tokens included", () => {
    const text = "query: 我穿在脚上的运动鞋是哪一双？ <mask> emoji 😀";
    const encoded: number[] = fastStandalone.encode(text).ids;
    expect(fastStandalone.decode(encoded)).toBe(libraryStandalone.decode(encoded));
    expect(encoded.map((id) => fastStandalone.id_to_token(id))).toEqual(
      encoded.map((id) => libraryStandalone.id_to_token(id)),
    );
    expect(fastStandalone.get_vocab().size).toBe(libraryStandalone.get_vocab().size);
  });

  it.skipIf(!existsSync(path.join(MINILM, "tokenizer.json")))(
    "leaves a tokenizer of another kind (WordPiece) to the library",
    async () => {
      expect(await loadUnigramTokenizer(tokenizers, MINILM)).toBeUndefined();
    },
  );
});
