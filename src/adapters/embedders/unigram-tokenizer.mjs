// A Unigram (SentencePiece) tokenizer loaded without its character trie. Plain JavaScript,
// imported by onnx-pipeline.mjs.
//
// transformers.js builds a Unigram tokenizer's vocabulary into a trie of one Map per character
// of every piece: for multilingual-e5's 250 002 pieces that is about 1.5 million Maps, ~1 s of
// a cold command's start with its garbage collection (most of the model's load: the ONNX graph
// itself opens in ~0.2 s). The same trie built only where texts walk it answers the same
// question — which pieces start here, shortest first — at a fraction of the cost, and stands
// in for the 250 002-entry Map from pieces to ids too. The vocabulary is read from the file
// `fetch-model` derives from tokenizer.json when it is there. Everything else — normalizer,
// pre-tokenizer, lattice, special tokens — is the library's own, so the token ids are the
// library's (test/unigram-tokenizer.test.ts compares them on a corpus in
// several languages). docs/benchmarks.md, "The model's tokenizer without its trie", has the
// figures.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

/**
 * The library's trie, built as it is walked: a node sorts the pieces that run through it into
 * its children the first time a text reaches it. A text touches a few thousand of the 1.5
 * million nodes, so a cold command builds next to nothing. A node where a piece ends holds its
 * id (the last one, for a piece listed twice, as a Map built from the list would).
 */
class LazyTrie {
  constructor(pieces) {
    this.pieces = pieces;
    const ids = [];
    this.root = LazyTrie.node(0, ids);
    pieces.forEach((piece, id) => {
      if (piece.length > 0) ids.push(id);
      else this.root.id = id;
    });
  }

  /** `offset`: where, in UTF-16 units, its pieces continue; `ids`: those that go on past it. */
  static node(offset, ids) {
    return { offset, ids, id: undefined, children: null };
  }

  child(node, codePoint) {
    if (node.children === null) {
      const children = new Map();
      for (const id of node.ids) {
        const piece = this.pieces[id];
        const point = piece.codePointAt(node.offset);
        const next = node.offset + (point > 0xffff ? 2 : 1);
        let child = children.get(point);
        if (child === undefined) {
          child = LazyTrie.node(next, []);
          children.set(point, child);
        }
        if (piece.length === next) child.id = id;
        else child.ids.push(id);
      }
      node.children = children;
      node.ids = null;
    }
    return node.children.get(codePoint);
  }

  /** The id of a piece, undefined for a string that is none. */
  idOf(text) {
    let node = this.root;
    for (const char of text) {
      node = this.child(node, char.codePointAt(0));
      if (node === undefined) return undefined;
    }
    return node.id;
  }

  /** The pieces that `chars` (code points) begins with at `start`, shortest first. */
  *common_prefix_search(chars, start = 0) {
    let node = this.root;
    let prefix = "";
    for (let index = start; index < chars.length; index++) {
      const char = chars[index];
      node = this.child(node, char.codePointAt(0));
      if (node === undefined) return;
      prefix += char;
      if (node.id !== undefined) yield prefix;
    }
  }
}

/**
 * The model's `tokens_to_ids` Map, answered by the trie: a Map of the 250 002 pieces took
 * ~0.13 s to build on every start. Tokens added after the vocabulary (the Tokenizer registers
 * the special ones) are kept beside it and win, as later `set`s do on a Map. Iterating builds
 * the whole Map, once; nothing on the embedding path iterates.
 */
class PieceIds {
  constructor(trie) {
    this.trie = trie;
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
      this.whole = new Map(this.trie.pieces.map((piece, id) => [piece, id]));
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
 * Gives a Unigram model built from a stand-in vocabulary the real one: the fields its
 * constructor derives from the vocabulary, with a LazyTrie for the trie, then the added tokens
 * as the Tokenizer's constructor registers them.
 */
function useVocabulary(model, pieces, scores, unkId, addedTokens) {
  model.vocab = pieces;
  model.scores = scores;
  model.unk_token_id = unkId;
  model.unk_token = pieces[unkId];
  // Built before the added tokens go into the vocabulary, as the library's trie is.
  model.trie = new LazyTrie(pieces.slice());
  model.tokens_to_ids = new PieceIds(model.trie);
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.tokens_to_ids.get(model.eos_token);
  let minScore = Number.POSITIVE_INFINITY;
  for (const score of scores) if (score < minScore) minScore = score;
  model.min_score = minScore;
  model.unk_score = minScore - 10;
  scores[unkId] = model.unk_score;
  for (const token of addedTokens) {
    model.tokens_to_ids.set(token.content, token.id);
    model.vocab[token.id] = token.content;
  }
}

/** The vocabulary file `hindsight fetch-model` derives from tokenizer.json (scripts/fetch-model.mjs). */
const DERIVED = "tokenizer.unigram.txt";

/**
 * The vocabulary of the derived file, when it is whole and was made from this tokenizer.json
 * (same size); undefined otherwise, and tokenizer.json is read instead. Line 1: tokenizer.json
 * without its vocabulary; line 2: the scores; then a piece per line.
 */
async function readDerived(modelDir, source) {
  const text = await readFile(path.join(modelDir, DERIVED), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const first = text.indexOf("\n");
    const second = text.indexOf("\n", first + 1);
    const header = JSON.parse(text.slice(0, first));
    if (header.source_bytes !== (await stat(source)).size) return undefined;
    const scores = JSON.parse(text.slice(first + 1, second));
    const pieces = text.slice(second + 1, -1).split("\n");
    if (!Array.isArray(scores) || pieces.length !== scores.length) return undefined;
    return { json: header.tokenizer, pieces, scores };
  } catch {
    return undefined; // cut short or garbled: tokenizer.json still says it all
  }
}

/**
 * The tokenizer's JSON and its vocabulary as pieces and scores: from the derived file, read
 * ~10× faster than tokenizer.json's 250 002 [piece, score] pairs, or from tokenizer.json.
 */
async function readUnigram(modelDir) {
  const source = path.join(modelDir, "tokenizer.json");
  const derived = await readDerived(modelDir, source);
  if (derived !== undefined) return derived;
  const json = JSON.parse(await readFile(source, "utf8"));
  const vocab = json.model?.vocab;
  if (json.model?.type !== "Unigram" || !Array.isArray(vocab)) return { json };
  return { json, pieces: vocab.map(([piece]) => piece), scores: vocab.map(([, score]) => score) };
}

/**
 * The tokenizer of a local model directory when its model is Unigram, as
 * `new Tokenizer(tokenizer.json, tokenizer_config.json)` of @huggingface/tokenizers makes it
 * but loaded fast; undefined for any other kind, which that constructor then loads itself.
 * `config`: the parsed tokenizer_config.json, when the caller has read it already.
 */
export async function loadUnigramTokenizer({ Tokenizer }, modelDir, config) {
  const { json, pieces, scores } = await readUnigram(modelDir);
  const model = json.model;
  if (model?.type !== "Unigram" || pieces === undefined) return undefined;
  const unkId = model.unk_id;
  if (!Number.isInteger(unkId) || unkId < 0 || unkId >= pieces.length) return undefined;
  const settings =
    config ?? JSON.parse(await readFile(path.join(modelDir, "tokenizer_config.json"), "utf8"));
  // The stand-in vocabulary keeps the pieces up to the unknown one, which the constructor reads.
  const standIn = pieces.slice(0, unkId + 1).map((piece, id) => [piece, scores[id]]);
  const tokenizer = new Tokenizer({ ...json, model: { ...model, vocab: standIn } }, settings);
  useVocabulary(tokenizer.model, pieces, scores, unkId, tokenizer.added_tokens);
  return tokenizer;
}
