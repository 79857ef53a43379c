// A Unigram tokenizer's vocabulary as typed arrays, and the binary file `fetch-model` writes
// them to (tokenizer.unigram.bin). Plain JavaScript: imported by unigram-tokenizer.mjs, which
// reads the file, and by scripts/fetch-model.mjs, which writes it.
//
// Why a binary file: tokenizer.json holds multilingual-e5's 250 002 pieces as [piece, score]
// pairs, ~0.3 s to parse on every start; even as text, one piece per line and the scores as a
// JSON array, decoding, splitting and parsing took ~0.12 s and left 250 002 strings to collect.
// Typed arrays are used where they lie in the file: no parsing, no strings, and the pieces come
// sorted, so the tokenizer's trie is a walk over ranges of that order with nothing to build.

/** The file's name in a model directory. */
export const VOCABULARY_FILE = "tokenizer.unigram.bin";

/** Eight bytes the file starts with; a new layout gets a new one. */
const MAGIC = "HSUNIGR1";

/** Magic, then four uint32: pieces, UTF-16 units of all pieces, header bytes, 0. */
const PREFIX_BYTES = 24;

/**
 * The vocabulary as the tokenizer uses it: `scores[id]`; piece `id` is
 * `units[offsets[id]..offsets[id + 1]]` (UTF-16 code units); `order` lists the ids with their
 * pieces sorted by code unit, a piece before the longer ones it begins, equal pieces by id.
 */
export function vocabularyArrays(pieces, scores) {
  const count = pieces.length;
  const offsets = new Uint32Array(count + 1);
  for (let id = 0; id < count; id++) offsets[id + 1] = offsets[id] + pieces[id].length;
  const units = new Uint16Array(offsets[count]);
  for (let id = 0; id < count; id++) {
    const piece = pieces[id];
    const start = offsets[id];
    for (let k = 0; k < piece.length; k++) units[start + k] = piece.charCodeAt(k);
  }
  // JavaScript compares strings by UTF-16 code unit, the order the trie walks them in.
  const order = Uint32Array.from(pieces.keys()).sort((a, b) =>
    pieces[a] < pieces[b] ? -1 : pieces[a] > pieces[b] ? 1 : a - b,
  );
  return { scores: Float64Array.from(scores), offsets, units, order };
}

const padTo8 = (bytes) => (8 - (bytes % 8)) % 8;

/**
 * The file: MAGIC; the counts; `header` as JSON (space-padded to a multiple of 8 bytes); then
 * scores (float64), offsets and order (uint32), units (uint16), little-endian as the typed
 * arrays of every platform Node supports are.
 */
export function encodeVocabulary(header, { scores, offsets, units, order }) {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const headerBytes = json.length + padTo8(PREFIX_BYTES + json.length);
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.write(MAGIC, 0, "latin1");
  prefix.writeUInt32LE(scores.length, 8);
  prefix.writeUInt32LE(units.length, 12);
  prefix.writeUInt32LE(headerBytes, 16);
  return Buffer.concat([
    prefix,
    json,
    Buffer.alloc(headerBytes - json.length, " "),
    ...[scores, offsets, order, units].map((array) =>
      Buffer.from(array.buffer, array.byteOffset, array.byteLength),
    ),
  ]);
}

/**
 * The header and arrays of a file's bytes, viewed where they lie; undefined for bytes that are
 * not a whole file of this layout (another layout, cut short, offsets out of order), or on a
 * big-endian machine.
 */
export function decodeVocabulary(bytes) {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return undefined;
  if (bytes.length < PREFIX_BYTES || bytes.toString("latin1", 0, 8) !== MAGIC) return undefined;
  const count = bytes.readUInt32LE(8);
  const unitCount = bytes.readUInt32LE(12);
  const headerBytes = bytes.readUInt32LE(16);
  const start = PREFIX_BYTES + headerBytes;
  const size = start + count * 8 + (count + 1) * 4 + count * 4 + unitCount * 2;
  if ((PREFIX_BYTES + headerBytes) % 8 !== 0 || bytes.length !== size) return undefined;
  let header;
  try {
    header = JSON.parse(bytes.toString("utf8", PREFIX_BYTES, start));
  } catch {
    return undefined;
  }
  // Typed arrays need their elements aligned: a Buffer may lie anywhere in its memory.
  let buffer = bytes;
  if (bytes.byteOffset % 8 !== 0) {
    buffer = new Uint8Array(bytes.length);
    buffer.set(bytes);
  }
  let at = buffer.byteOffset + start;
  const view = (Type, length) => {
    const array = new Type(buffer.buffer, at, length);
    at += array.byteLength;
    return array;
  };
  const scores = view(Float64Array, count);
  const offsets = view(Uint32Array, count + 1);
  const order = view(Uint32Array, count);
  const units = view(Uint16Array, unitCount);
  if (offsets[0] !== 0 || offsets[count] !== unitCount) return undefined;
  for (let id = 0; id < count; id++) if (offsets[id + 1] < offsets[id]) return undefined;
  for (const id of order) if (id >= count) return undefined;
  return { header, scores, offsets, units, order };
}
