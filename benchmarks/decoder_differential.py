"""
Differential check of the authors' decoder rule (docs/reproduction.md row 7, note 5): the authors'
`Seq2SeqModel.decode` (``../shared/reference_impl``, their pinned commit plus its compatibility
patch, in a scratch copy) and our `ReduceInputStackDecoder` (`reduce_input="inputs"`,
`initial_state="last_cells"`, the faithful defaults) teacher-force the same random GEN/REDUCE
sequences on the same weights and encoder states, and the script prints, per sequence, the largest
difference between the two attentional vectors over all steps.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/decoder_differential.py [--sequences 20] [--seed 0]

The weights are copied from a randomly initialised authors' model into ours. Their attentional
vector (`att_vec_linear`) and REDUCE map (`input_stack_reduce_linear`) have no bias. The first table
is our decoder as the faithful configs build it, bias-free too (`bias=False`, `decoder_bias: false`),
so it checks the whole rule: which state a step continues from, which inputs a REDUCE averages, h_0
from the last cells, input feeding. The second gives ours the two bias terms of system
`our-decoder-details`, as initialised (what they alone change at the start of training). Entity and variable slots,
the attention regularizer and supervised attention are off on their side: they do not change the
decoder states. Without the reference code the script says so and exits.
"""
import argparse
import contextlib
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import types
from typing import Dict, List, Tuple

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from fewshot_parser.logical_forms.transition_system import teacher_forcing  # noqa: E402
from fewshot_parser.modules.reduce_input_decoder import ReduceInputStackDecoder  # noqa: E402

DEFAULT_REFERENCE = os.path.join(os.path.dirname(ROOT), "shared", "reference_impl")
NUM_ACTIONS, INPUT_DIM, HIDDEN, SOURCE_LENGTH = 12, 4, 8, 7


def patched_copy(reference: str, work: str) -> str:
    """The authors' `src/` copied to `work` with `compat.patch` applied (their code as it runs here)."""
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(reference, "src"), src)
    with open(os.path.join(reference, "compat.patch"), "rb") as patch:
        subprocess.run(["patch", "-s", "-p1"], stdin=patch, cwd=src, check=True)
    return src


def random_sequence(rng: random.Random, length: int) -> List[Tuple[int, int]]:
    """A valid post-order sequence of (action id, arity): a REDUCE pops 2-3 of the stack's subtrees."""
    sequence: List[Tuple[int, int]] = []
    stack = 0
    while len(sequence) < length:
        arity = rng.choice([k for k in (2, 3) if k <= stack] + [0, 0])
        sequence.append((rng.randrange(NUM_ACTIONS), arity))
        stack = stack - arity + 1
    return sequence


def compare(reference: str, num_sequences: int, length: int, seed: int) -> Dict[bool, List[Tuple[int, float]]]:
    """
    For our decoder without bias terms (False, the faithful one) and with them (True): per random sequence, its number of
    steps that read a REDUCE and the largest difference between the two decoders' attentional vectors.
    """
    work = tempfile.mkdtemp(prefix="decoder_differential_")
    try:
        sys.path.insert(0, patched_copy(reference, work))
        from grammar.rule import GenAction, ProductionRuleBL, ReduceAction  # noqa: E402
        from grammar.vertex import RuleVertex  # noqa: E402
        from model.few_shot_seq2seq import Seq2SeqModel  # noqa: E402

        torch.manual_seed(seed)
        rng = random.Random(seed)
        vocab = types.SimpleNamespace(source=list(range(10)), vertex=list(range(NUM_ACTIONS + 1)),
                                      action=list(range(NUM_ACTIONS)), entity=list(range(3)), variable=list(range(3)))
        options = types.SimpleNamespace(
            use_cuda=False, embed_size=6, action_embed_size=INPUT_DIM, hidden_size=HIDDEN, metric="acc", hyp_embed=False,
            use_att=True, use_input_lstm_encode=False, sup_attention=False, dropout=0.0, att_reg=False,
            label_smoothing=0.0, train_mask=False)
        with contextlib.redirect_stdout(io.StringIO()):  # their constructor prints the vocabulary sizes
            theirs = Seq2SeqModel(vocab, options).eval()
        for parameter in theirs.parameters():
            torch.nn.init.uniform_(parameter, -0.5, 0.5)
        start = NUM_ACTIONS  # their vertex id of `<s>`

        def copied(bias: bool) -> ReduceInputStackDecoder:
            """Ours with their weights; with `bias`, our two bias terms as initialised."""
            ours = ReduceInputStackDecoder(
                2 * HIDDEN, HIDDEN, HIDDEN, NUM_ACTIONS, INPUT_DIM, 0.0, False, "inputs", "last_cells", bias
            ).eval()
            with torch.no_grad():
                for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                    getattr(ours.cell, name).copy_(getattr(theirs.decoder_lstm, name))
                ours.reduce.weight.copy_(theirs.input_stack_reduce_linear.weight)
                ours.input_embedding.copy_(theirs.ast_embed.weight[:NUM_ACTIONS])
                ours.start.copy_(theirs.ast_embed.weight[start])
                ours.initial.weight.copy_(theirs.decoder_cell_init.weight)
                ours.initial.bias.copy_(theirs.decoder_cell_init.bias)
                ours.attention_key.weight.copy_(theirs.att_src_linear.weight)
                ours.output.weight.copy_(theirs.att_vec_linear.weight)
            return ours

        decoders = {False: copied(False), True: copied(True)}
        sequences = [random_sequence(rng, length) for _ in range(num_sequences)]
        inputs = [(torch.randn(1, SOURCE_LENGTH, 2 * HIDDEN), torch.randn(1, 2 * HIDDEN)) for _ in sequences]

        def largest_differences(with_biases: bool) -> List[Tuple[int, float]]:
            ours = decoders[with_biases]
            with torch.no_grad():
                found = []
                for sequence, (encoded, cells) in zip(sequences, inputs):
                    batch = types.SimpleNamespace(
                        action_seq=[[ReduceAction(ProductionRuleBL(RuleVertex(f"r{a}"), k)) if k else GenAction(RuleVertex(f"g{a}"))
                                     for a, k in sequence]],
                        ast_seq=[[None] * len(sequence)],
                        ast_seq_var=torch.tensor([[start]] + [[a] for a, _ in sequence[:-1]]),
                        variable_seq=[[]], examples=[])
                    result = theirs.decode(encoded.permute(1, 0, 2), None, theirs.init_decoder_state(None, cells), batch)
                    reference = torch.cat(result["att_logits"], 0)
                    pointers = teacher_forcing([types.SimpleNamespace(arity=k) for _, k in sequence])
                    width = max(1, max(len(p) for p in pointers.popped_states))
                    popped = torch.tensor([[p + [-1] * (width - len(p)) for p in pointers.popped_states]])
                    ours.encoder_cells = cells
                    output = ours(encoded, torch.ones(1, SOURCE_LENGTH, dtype=torch.bool), torch.randn(NUM_ACTIONS, HIDDEN),
                                  torch.tensor([[a for a, _ in sequence]]), torch.tensor([pointers.previous_state]), popped)
                    compared = output.projections[0, : reference.size(0)]
                    reductions = sum(1 for _, k in sequence[:-1] if k)
                    found.append((reductions, (compared - reference).abs().max().item()))
                return found

        return {with_biases: largest_differences(with_biases) for with_biases in (False, True)}
    finally:
        sys.path.remove(os.path.join(work, "src"))
        for name in [n for n, m in sys.modules.items() if (getattr(m, "__file__", None) or "").startswith(work)]:
            del sys.modules[name]  # their top-level packages (`model`, `common`, ...) leave with their copy
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help="the authors' code (default ../shared/reference_impl)")
    parser.add_argument("--sequences", type=int, default=20)
    parser.add_argument("--length", type=int, default=14)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.reference, "src")):
        print(f"decoder_differential: the authors' code is not at {args.reference}; nothing to compare.")
        return 0
    results = compare(args.reference, args.sequences, args.length, args.seed)
    for title, with_biases in (("bias-free, as the faithful configs build it", False), ("with the biases of our-decoder-details", True)):
        print(f"\n{title}: {args.sequences} sequences of {args.length} actions, seed {args.seed}\n")
        print("| sequence | steps reading a REDUCE | largest difference of the attentional vectors |")
        print("|---|---|---|")
        for number, (reductions, difference) in enumerate(results[with_biases]):
            print(f"| {number} | {reductions} | {difference:.2e} |")
        print(f"\nlargest over all sequences: {max(d for _, d in results[with_biases]):.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
