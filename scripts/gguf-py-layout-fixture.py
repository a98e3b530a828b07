#!/usr/bin/env python3
"""By-hand tool (the test suite never runs it): writes a small Q4_K_M-style GGUF with gguf-py
and, beside it, the byte length gguf-py's own GGML_QUANT_SIZES gives each tensor.

    pip install gguf
    python3 scripts/gguf-py-layout-fixture.py rea-core/src/test/resources/layout

Tensor data is deterministic filler of gguf-py's size for the type: only the directory and the
ranges matter to REA. The expected-lengths file records the gguf package version as its source.
"""
import importlib.metadata
import os
import sys

import numpy as np
from gguf import GGML_QUANT_SIZES, GGMLQuantizationType as T, GGUFWriter

TENSORS = [
    ("token_embd.weight", T.Q4_K, (512, 4)),
    ("blk.0.attn_q.weight", T.Q4_K, (256, 2)),
    ("blk.0.attn_k.weight", T.Q5_K, (256, 2)),
    ("blk.0.attn_v.weight", T.Q6_K, (512, 1)),
    ("blk.0.attn_output.weight", T.Q4_K, (256, 3)),
    ("blk.0.ffn_gate.weight", T.Q3_K, (256, 2)),
    ("blk.0.ffn_up.weight", T.Q2_K, (768, 1)),
    ("blk.0.ffn_down.weight", T.Q6_K, (256, 2)),
    ("blk.0.attn_norm.weight", T.F32, (256,)),
    ("blk.0.q8_k.weight", T.Q8_K, (256, 1)),
    ("blk.0.q8_1.weight", T.Q8_1, (64, 2)),
    ("blk.0.iq4_nl.weight", T.IQ4_NL, (64, 2)),
    ("blk.0.iq2_xxs.weight", T.IQ2_XXS, (256, 1)),
    ("output.weight", T.Q6_K, (256, 4)),
]


def main(out_dir: str) -> None:
    version = importlib.metadata.version("gguf")
    path = os.path.join(out_dir, "gguf-py-q4_k_m-style.gguf")
    w = GGUFWriter(path, "llama")
    w.add_name("rea layout fixture")
    w.add_file_type(15)  # MOSTLY_Q4_K_M
    lines = [f"# source: gguf-py {version} GGML_QUANT_SIZES (block elements, block bytes)",
             "# name type_id type elements byte_length"]
    for k, (name, qtype, shape) in enumerate(TENSORS):
        block, size = GGML_QUANT_SIZES[qtype]
        elements = int(np.prod(shape))
        nbytes = elements // block * size
        rows = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        data = (np.arange(nbytes, dtype=np.uint32) * 31 + k).astype(np.uint8).reshape(rows, -1)
        # gguf-py takes the byte shape (rows, bytes per row) and derives the element shape.
        w.add_tensor(name, data, raw_dtype=qtype)
        lines.append(f"{name} {int(qtype)} {qtype.name} {elements} {nbytes}")
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with open(os.path.join(out_dir, "gguf-py-q4_k_m-style.expected"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
