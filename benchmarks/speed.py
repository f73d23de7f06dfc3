"""
Speed of ProtoParser on this machine: seconds per training epoch on ATIS train (3,947 examples,
batch 64) and decoding throughput (utterances per second, greedy and beam 5) on an ATIS query set,
plus peak resident memory.

    python benchmarks/speed.py [--epochs 3] [--config experiments/supervised.jsonnet]
                               [--words random|static|contextual|contextual-tuned] [--no-lstm] [--linking]

`--words` swaps the word representation of the config for that of a grid row (`static`,
`contextual`, `contextual-tuned` of lab/systems.jsonnet: the packaged MiniLM); with `contextual` the
frozen encoder's outputs are cached per utterance, so the first epoch pays for the encoder and later
ones do not (all epoch times are printed).

The model is trained for `--epochs` epochs first (decoding an untrained model runs every
utterance to the step limit, which says nothing about real throughput); the reported epoch time is
the mean over those epochs. Reading and indexing the data is excluded and reported separately.
"""
import argparse
import json
import random
import resource
import time

import _jsonnet
import torch
from allennlp.common import Params
from allennlp.data import Batch, DatasetReader, Vocabulary
from allennlp.models import Model

import fewshot_parser  # noqa: F401


# --words -> the grid row whose word representation it takes (None: the supervised config's random words).
WORDS = {"random": None, "static": "static", "contextual": "contextual", "contextual-tuned": "contextual-tuned"}


def config_snippet(args: argparse.Namespace) -> str:
    """The config, with its word representation (and encoder) replaced as the options ask."""
    linking = " + { model+: { lexical_linking: true, link_pooling: 'both', lexicon: 'atis' } }" if args.linking else ""
    config = f"(import '{args.config}')"
    if args.words is None and not args.no_lstm:
        return config + linking
    words = {"indexers": {"tokens": {"type": "single_id"}}, "embedders": {"tokens": {"type": "embedding", "embedding_dim": 200}}, "dim": 200}
    if WORDS[args.words or "random"] is not None:
        from fewshot_parser.commands.systems import render_config

        row = render_config(f"lab/systems.jsonnet#{WORDS[args.words]}/atis_1shot",
                            {"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "unused"})
        words = {"indexers": row["dataset_reader"]["reader"]["token_indexers"] if "reader" in row["dataset_reader"]
                 else row["dataset_reader"]["token_indexers"],
                 "embedders": row["model"]["source_embedder"]["token_embedders"], "dim": row["model"]["encoder"]["input_size"]}
    dim = words["dim"]
    encoder = (f"{{ type: 'pass_through', input_dim: {dim} }}" if args.no_lstm
               else f"{{ type: 'lstm', input_size: {dim}, hidden_size: 128, bidirectional: true }}")
    return (f"{config} + {{ dataset_reader+: {{ token_indexers: {json.dumps(words['indexers'])} }},"
            f" model+: {{ source_embedder: {{ token_embedders: {json.dumps(words['embedders'])} }}, encoder: {encoder} }} }}{linking}")


def batches(instances, vocab, size):
    out = []
    for start in range(0, len(instances), size):
        batch = Batch(instances[start : start + size])
        batch.index_instances(vocab)
        out.append(batch.as_tensor_dict())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="experiments/supervised.jsonnet")
    parser.add_argument("--train", default="atis/lemma_data/shuffle_0_shot_1/train.txt")
    parser.add_argument("--query", default="atis/lemma_data/shuffle_0_shot_1/query.txt")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--words", choices=sorted(WORDS), default=None, help="word representation (default: the config's)")
    parser.add_argument("--no-lstm", action="store_true", help="no BiLSTM over the word vectors")
    parser.add_argument("--linking", action="store_true", help="lexical linking with the shipped ATIS lexicon")
    args = parser.parse_args()
    torch.manual_seed(0)
    config = json.loads(_jsonnet.evaluate_snippet("speed", config_snippet(args), jpathdir=".",
                                                  ext_vars={"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": "13",
                                                            "FEWSHOT_DATASET": "atis", "FEWSHOT_SHOT": "1"}))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    start = time.time()
    train = list(reader.read(args.train))
    query = list(reader.read(args.query))
    read_seconds = time.time() - start
    vocab = Vocabulary.from_instances(train)
    for instance in train + query:
        reader.apply_token_indexers(instance)
    model = Model.from_params(Params(config["model"]), vocab=vocab)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0025)
    epoch_seconds = []
    for epoch in range(args.epochs):
        random.Random(epoch).shuffle(train)
        start = time.time()
        tensors = batches(train, vocab, args.batch_size)
        model.train()
        for batch in tensors:
            optimizer.zero_grad()
            model(**batch)["loss"].backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        epoch_seconds.append(time.time() - start)
    model.eval()
    throughput = {}
    prediction_batches = batches([_without_gold(reader, i) for i in query], vocab, 128)
    for beam in (1, 5):
        model.beam_size = beam
        start = time.time()
        with torch.no_grad():
            for batch in prediction_batches:
                model(**batch)
        throughput[beam] = len(query) / (time.time() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"read+oracle: {len(train) + len(query)} instances in {read_seconds:.1f} s "
          f"({(len(train) + len(query)) / read_seconds:.0f} instances/s)")
    print(f"training epoch (ATIS train, {len(train)} examples, batch {args.batch_size}): "
          f"{sum(epoch_seconds) / len(epoch_seconds):.1f} s (epochs: {', '.join(f'{s:.1f}' for s in epoch_seconds)})")
    print(f"decoding {len(query)} utterances: greedy {throughput[1]:.0f} utt/s, beam 5 {throughput[5]:.0f} utt/s")
    print(f"words: {args.words or 'as configured'}{', no BiLSTM' if args.no_lstm else ''}"
          f"{', lexical linking' if args.linking else ''}")
    print(f"peak resident memory: {peak_mb:.0f} MB; torch threads: {torch.get_num_threads()}")


def _without_gold(reader, instance):
    metadata = instance["metadata"].metadata
    fresh = reader.text_to_instance(" ".join(metadata["utterance"]))
    reader.apply_token_indexers(fresh)
    return fresh


if __name__ == "__main__":
    main()
