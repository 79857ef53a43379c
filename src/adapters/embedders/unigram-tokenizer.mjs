// A Unigram (SentencePiece) tokenizer loaded without building its character trie. Plain
// JavaScript, imported by onnx-pipeline.mjs.
//
// transformers.js builds a Unigram tokenizer's vocabulary into a trie of one Map per character
// of every piece: for multilingual-e5's 250 002 pieces that is about 1.5 million Maps, ~1 s of
// a cold command's start with its garbage collection (most of the model's load: the ONNX graph
// itself opens in ~0.15 s). The pieces sorted by code unit answer the trie's question — which
// pieces start here, shortest first — with binary searches over ranges of that order, so
// nothing is built before a text is walked; the same order stands in for the 250 002-entry Map
// from pieces to ids too. The vocabulary comes as typed arrays from the binary file
// `fetch-model` derives from tokenizer.json (unigram-vocabulary.mjs) when it is there.
// Everything else — normalizer, pre-tokenizer, lattice, special tokens — is the library's own,
// so the token ids are the library's (test/unigram-tokenizer.test.ts compares them on a corpus
// in several languages). docs/benchmarks.md, "The model's tokenizer without its trie", has the
// figures.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { decodeVocabulary, VOCABULARY_FILE, vocabularyArrays } from "./unigram-vocabulary.mjs";

/**
 * The library's trie over the vocabulary's sorted order: the pieces that begin with a prefix
 * are one range of the order, and the range for one more code unit is found inside it by two
 * binary searches. A node — a prefix's range — is made the first time a text reaches it and
 * keeps its children, so a cold command makes a few thousand small objects, not 1.5 million.
 * A node where a piece ends holds its id (the last one, for a piece listed twice, as a Map
 * built from the list would).
 */
class SortedTrie {
  constructor({ offsets, units, order }) {
    this.offsets = offsets;
    this.units = units;
    this.order = order;
    this.root = this.node(0, order.length, 0);
  }

  /** Code unit `depth` of the piece at `index` of the order; -1 past its end, which sorts first. */
  unitAt(index, depth) {
    const id = this.order[index];
    const at = this.offsets[id] + depth;
    return at < this.offsets[id + 1] ? this.units[at] : -1;
  }

  /** The first index of [lo, hi) whose code unit `depth` is `unit` or above. */
  lowerBound(lo, hi, depth, unit) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.unitAt(mid, depth) < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The pieces at [lo, hi) of the order, which share their first `depth` code units. */
  node(lo, hi, depth) {
    let id;
    for (let index = lo; index < hi && this.unitAt(index, depth) === -1; index++) {
      id = this.order[index];
    }
    return { lo, hi, depth, id, children: new Map() };
  }

  /** The node one code unit further; null when no piece goes on with it. */
  step(node, unit) {
    let child = node.children.get(unit);
    if (child === undefined) {
      const lo = this.lowerBound(node.lo, node.hi, node.depth, unit);
      const hi = this.lowerBound(lo, node.hi, node.depth, unit + 1);
      child = lo < hi ? this.node(lo, hi, node.depth + 1) : null;
      node.children.set(unit, child);
    }
    return child;
  }

  /** The node `text` leads to from `node`, unit by unit; null when no piece begins so. */
  walk(node, text) {
    let at = node;
    for (let k = 0; k < text.length && at !== null; k++) at = this.step(at, text.charCodeAt(k));
    return at;
  }

  /** The id of a piece, undefined for a string that is none. */
  idOf(text) {
    return this.walk(this.root, text)?.id;
  }

  /** The pieces that `chars` (code points) begins with at `start`, shortest first. */
  *common_prefix_search(chars, start = 0) {
    let node = this.root;
    let prefix = "";
    for (let index = start; index < chars.length; index++) {
      const char = chars[index];
      node = this.walk(node, char);
      if (node === null) return;
      prefix += char;
      if (node.id !== undefined) yield prefix;
    }
  }
}

/** Piece `id` of the vocabulary's arrays, as a string. */
function pieceAt({ offsets, units }, id) {
  return String.fromCharCode(...units.subarray(offsets[id], offsets[id + 1]));
}

/**
 * The model's `tokens_to_ids` Map, answered by the trie: a Map of the 250 002 pieces took
 * ~0.13 s to build on every start. Tokens added after the vocabulary (the Tokenizer registers
 * the special ones) are kept beside it and win, as later `set`s do on a Map. Iterating builds
 * the whole Map, once; nothing on the embedding path iterates.
 */
class PieceIds {
  constructor(trie, vocabulary) {
    this.trie = trie;
    this.vocabulary = vocabulary;
    this.added = new Map();
    this.whole = undefined;
  }

  get(token) {
    const added = this.added.get(token);
    return added !== undefined ? added : this.trie.idOf(token);
  }

  has(token) {
    return this.get(token) !== undefined;
  }

  set(token, id) {
    this.added.set(token, id);
    this.whole?.set(token, id);
    return this;
  }

  map() {
    if (this.whole === undefined) {
      const { scores } = this.vocabulary;
      this.whole = new Map(Array.from(scores, (_, id) => [pieceAt(this.vocabulary, id), id]));
      for (const [token, id] of this.added) this.whole.set(token, id);
    }
    return this.whole;
  }

  get size() {
    return this.map().size;
  }

  keys() {
    return this.map().keys();
  }

  values() {
    return this.map().values();
  }

  entries() {
    return this.map().entries();
  }

  forEach(callback, thisArg) {
    this.map().forEach(callback, thisArg);
  }

  [Symbol.iterator]() {
    return this.map()[Symbol.iterator]();
  }
}

/**
 * The model's `vocab` (id → piece) as an array made on first use: only decoding reads it, so
 * embedding never makes its 250 002 strings. Pieces set before then (the added tokens) are
 * kept and laid over it.
 */
function lazyVocab(model, vocabulary) {
  const early = new Map();
  Object.defineProperty(model, "vocab", {
    configurable: true,
    enumerable: true,
    get() {
      const made = Array.from(vocabulary.scores, (_, id) => pieceAt(vocabulary, id));
      for (const [id, piece] of early) made[id] = piece;
      Object.defineProperty(model, "vocab", { value: made, writable: true });
      return made;
    },
    set(value) {
      Object.defineProperty(model, "vocab", { value, writable: true });
    },
  });
  return {
    set(id, piece) {
      const made = Object.getOwnPropertyDescriptor(model, "vocab")?.value;
      if (made === undefined) early.set(id, piece);
      else made[id] = piece;
    },
  };
}

/**
 * Gives a Unigram model built from a stand-in vocabulary the real one: the fields its
 * constructor derives from the vocabulary, with a SortedTrie for the trie, then the added
 * tokens as the Tokenizer's constructor registers them.
 */
function useVocabulary(model, vocabulary, unkId, addedTokens) {
  const scores = vocabulary.scores;
  const vocab = lazyVocab(model, vocabulary);
  model.scores = scores;
  model.unk_token_id = unkId;
  model.unk_token = pieceAt(vocabulary, unkId);
  // Built before the added tokens go into the vocabulary, as the library's trie is.
  model.trie = new SortedTrie(vocabulary);
  model.tokens_to_ids = new PieceIds(model.trie, vocabulary);
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.tokens_to_ids.get(model.eos_token);
  let minScore = Number.POSITIVE_INFINITY;
  for (const score of scores) if (score < minScore) minScore = score;
  model.min_score = minScore;
  model.unk_score = minScore - 10;
  scores[unkId] = model.unk_score;
  for (const token of addedTokens) {
    model.tokens_to_ids.set(token.content, token.id);
    vocab.set(token.id, token.content);
  }
}

/**
 * The vocabulary of the derived file, when it is whole and was made from this tokenizer.json
 * (same size); undefined otherwise, and tokenizer.json is read instead.
 */
async function readDerived(modelDir, source) {
  const bytes = await readFile(path.join(modelDir, VOCABULARY_FILE)).catch(() => undefined);
  const derived = bytes === undefined ? undefined : decodeVocabulary(bytes);
  if (derived === undefined) return undefined; // missing, cut short or garbled
  if (derived.header.source_bytes !== (await stat(source)).size) return undefined;
  return { json: derived.header.tokenizer, vocabulary: derived };
}

/**
 * The tokenizer's JSON and its vocabulary's arrays: from the derived file, or made from
 * tokenizer.json (~0.5 s more: its pieces are parsed and sorted).
 */
async function readUnigram(modelDir) {
  const source = path.join(modelDir, "tokenizer.json");
  const derived = await readDerived(modelDir, source);
  if (derived !== undefined) return derived;
  const json = JSON.parse(await readFile(source, "utf8"));
  const vocab = json.model?.vocab;
  if (json.model?.type !== "Unigram" || !Array.isArray(vocab)) return { json };
  const pieces = vocab.map(([piece]) => piece);
  return {
    json,
    vocabulary: vocabularyArrays(
      pieces,
      vocab.map(([, score]) => score),
    ),
  };
}

/**
 * The tokenizer of a local model directory when its model is Unigram, as
 * `new Tokenizer(tokenizer.json, tokenizer_config.json)` of @huggingface/tokenizers makes it
 * but loaded fast; undefined for any other kind, which that constructor then loads itself.
 * `config`: the parsed tokenizer_config.json, when the caller has read it already.
 */
export async function loadUnigramTokenizer({ Tokenizer }, modelDir, config) {
  const { json, vocabulary } = await readUnigram(modelDir);
  const model = json.model;
  if (model?.type !== "Unigram" || vocabulary === undefined) return undefined;
  const unkId = model.unk_id;
  const count = vocabulary.scores.length;
  if (!Number.isInteger(unkId) || unkId < 0 || unkId >= count) return undefined;
  const settings =
    config ?? JSON.parse(await readFile(path.join(modelDir, "tokenizer_config.json"), "utf8"));
  // The stand-in vocabulary keeps the pieces up to the unknown one, which the constructor reads.
  const standIn = Array.from({ length: unkId + 1 }, (_, id) => [
    pieceAt(vocabulary, id),
    vocabulary.scores[id],
  ]);
  const tokenizer = new Tokenizer({ ...json, model: { ...model, vocab: standIn } }, settings);
  useVocabulary(tokenizer.model, vocabulary, unkId, tokenizer.added_tokens);
  return tokenizer;
}
