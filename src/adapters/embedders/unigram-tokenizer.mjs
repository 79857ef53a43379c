// A Unigram (SentencePiece) tokenizer loaded without its character trie. Plain JavaScript,
// imported by model-worker.mjs.
//
// transformers.js builds a Unigram tokenizer's vocabulary into a trie of one Map per character
// of every piece: for multilingual-e5's 250 002 pieces that is about 1.5 million Maps, ~1 s of
// a cold command's start with its garbage collection (most of the model's load: the ONNX graph
// itself opens in ~0.2 s). The same trie built only where texts walk it answers the same
// question — which pieces start here, shortest first — at a fraction of the cost. Everything
// else — normalizer, pre-tokenizer, lattice, special tokens, padding, truncation — is the
// library's own, so the token ids are the library's (test/unigram-tokenizer.test.ts compares
// them on a corpus in several languages).
import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The library's trie, built as it is walked: a node sorts the pieces that run through it into
 * its children the first time a text reaches it. A text touches a few thousand of the 1.5
 * million nodes, so a cold command builds next to nothing.
 */
class LazyTrie {
  constructor(pieces) {
    this.pieces = pieces;
    this.root = LazyTrie.node(
      0,
      Array.from(pieces, (_, id) => id),
    );
  }

  /** `offset`: where, in UTF-16 units, its pieces continue; `ids`: those that go on past it. */
  static node(offset, ids) {
    return { offset, ids, leaf: false, children: null };
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
        if (piece.length === next) child.leaf = true;
        else child.ids.push(id);
      }
      node.children = children;
      node.ids = null;
    }
    return node.children.get(codePoint);
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
      if (node.leaf) yield prefix;
    }
  }
}

/**
 * Gives a Unigram model built from a stand-in vocabulary the real one: the fields its
 * constructor derives from the vocabulary, with a LazyTrie for the trie, then the added tokens
 * as the Tokenizer's constructor registers them.
 */
function useVocabulary(model, vocab, unkId, addedTokens) {
  model.vocab = vocab.map(([piece]) => piece);
  model.scores = vocab.map(([, score]) => score);
  model.unk_token_id = unkId;
  model.unk_token = model.vocab[unkId];
  model.tokens_to_ids = new Map(model.vocab.map((piece, id) => [piece, id]));
  model.bos_token_id = model.tokens_to_ids.get(model.bos_token);
  model.eos_token_id = model.tokens_to_ids.get(model.eos_token);
  let minScore = Number.POSITIVE_INFINITY;
  for (const score of model.scores) if (score < minScore) minScore = score;
  model.min_score = minScore;
  model.unk_score = minScore - 10;
  model.scores[unkId] = model.unk_score;
  model.trie = new LazyTrie(model.vocab);
  for (const token of addedTokens) {
    model.tokens_to_ids.set(token.content, token.id);
    model.vocab[token.id] = token.content;
  }
}

async function readJson(file) {
  return JSON.parse(await readFile(file, "utf8"));
}

/**
 * The tokenizer of a local model directory when its model is Unigram, as transformers'
 * AutoTokenizer would make it but loaded fast; undefined for any other kind, which the
 * library then loads itself.
 */
export async function loadUnigramTokenizer(transformers, modelDir) {
  const json = await readJson(path.join(modelDir, "tokenizer.json"));
  const model = json.model;
  if (model?.type !== "Unigram" || !Array.isArray(model.vocab)) return undefined;
  const unkId = model.unk_id;
  if (!Number.isInteger(unkId) || unkId < 0 || unkId >= model.vocab.length) return undefined;
  const config = await readJson(path.join(modelDir, "tokenizer_config.json"));
  const name = config.tokenizer_class?.replace(/Fast$/, "") ?? "PreTrainedTokenizer";
  const Tokenizer = transformers[name] ?? transformers.PreTrainedTokenizer;
  // The stand-in vocabulary keeps the pieces up to the unknown one, which the constructor reads.
  const standIn = { ...json, model: { ...model, vocab: model.vocab.slice(0, unkId + 1) } };
  const tokenizer = new Tokenizer(standIn, config);
  const inner = tokenizer._tokenizer;
  useVocabulary(inner.model, model.vocab, unkId, inner.added_tokens);
  return tokenizer;
}
