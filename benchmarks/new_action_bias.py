"""
Exact match of a fine-tuned ProtoParser archive on a query set for several values of
`new_action_bias` (the decoding prior added to the scores of new actions). Fine-tuned archives
record which actions are new; for one written before they did, the new actions are taken to be those
of its vocabulary that the pre-trained archive's vocabulary lacks. Decoding only: nothing is retrained.

    python benchmarks/new_action_bias.py runs/tune_schema/contextual-schema/jobs_1shot_s0/model.tar.gz \\
        runs/pretrain/jobs-contextual-schema/model.tar.gz data/jobs/lemma_data/shuffle_0_shot_1/query.txt \\
        --biases 0 1 2 3
"""
import argparse
import os
import sys
from typing import List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from allennlp.data import Vocabulary  # noqa: E402
from allennlp.data.data_loaders import MultiProcessDataLoader  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402
from allennlp.training.util import evaluate  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.data.dataset_readers.fewshot_reader import ACTION_NAMESPACE  # noqa: E402


def new_actions(vocab: Vocabulary, pretrained: Vocabulary) -> List[int]:
    """Indices in `vocab` of the actions that `pretrained` does not have."""
    known = set(pretrained.get_token_to_index_vocabulary(ACTION_NAMESPACE))
    return [i for a, i in vocab.get_token_to_index_vocabulary(ACTION_NAMESPACE).items() if a not in known]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", help="a fine-tuned model.tar.gz")
    parser.add_argument("pretrained", help="the model.tar.gz it was fine-tuned from")
    parser.add_argument("query", help="the split's query.txt")
    parser.add_argument("--biases", nargs="+", type=float, default=[0.0, 1.0, 2.0, 3.0])
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    for path in (args.archive, args.pretrained, args.query):
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")
    torch.set_num_threads(1)
    archive = load_archive(args.archive)
    model = archive.model
    model.eval()
    pretrained_vocab = Vocabulary.from_files(os.path.join(_unpacked(args.pretrained), "vocabulary"))
    if not model._new_action_mask.any():  # written before archives recorded their new actions
        model._new_action_mask[new_actions(model.vocab, pretrained_vocab)] = True
    loader = MultiProcessDataLoader(archive.validation_dataset_reader, args.query, batch_size=args.batch_size)
    loader.index_with(model.vocab)
    instances = list(loader.iter_instances())
    print(f"{args.archive}: {int(model._new_action_mask.sum())} new actions, {len(instances)} query examples")
    for bias in args.biases:
        model.new_action_bias = bias
        metrics = evaluate(model, loader, cuda_device=-1)
        print(f"bias {bias:5.2f}  exact match {100 * metrics['exact_match']:6.2f}")


def _unpacked(archive: str) -> str:
    """A directory with the archive's files (AllenNLP's cache of extracted archives)."""
    import tarfile
    import tempfile

    directory = tempfile.mkdtemp(prefix="fewshot_vocab_")
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith("vocabulary/")]
        tar.extractall(directory, members=members)
    return directory


if __name__ == "__main__":
    main()
