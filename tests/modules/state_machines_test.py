"""The decoder state, its transition and the beam search of `modules/state_machines/`."""
import torch

from fewshot_parser.modules.state_machines import StackBeamSearch, StackDecoderState, applicable_mask

# Actions: 0 padding, 1 and 2 push a leaf, 3 reduces two subtrees, 4 STOP.
SPACE = {
    "valid": torch.tensor([False, True, True, True, True]),
    "arity": torch.tensor([0, 0, 0, 2, 1]),
    "is_stop": torch.tensor([False, False, False, False, True]),
}


def test_the_transition_pushes_pops_and_points_at_the_state_below_the_top():
    h = torch.zeros(1, 3)
    state = StackDecoderState.initial(h, h, max_steps=5)
    for step, action in enumerate([1, 2, 3]):
        state.advance(torch.tensor([0]), torch.tensor([action]), h + step + 1, h, h, SPACE, step)
        if step == 1:
            assert state.stack_states[0, :2].tolist() == [2, 3] and state.stack_size.tolist() == [2]
            assert state.previous.tolist() == [2]  # the next step continues from the state below the top
    assert state.popped.tolist() == [[2, 3]]  # the reduce popped both leaves
    assert state.stack_states[0, 0].item() == 4 and state.stack_size.tolist() == [1]
    assert state.previous.tolist() == [1] and len(state.hs) == 4
    assert [x.tolist() for x in state.history] == [[1], [2], [3]]
    assert applicable_mask(SPACE, state.stack_size).tolist() == [[False, True, True, False, True]]
    state.advance(torch.tensor([0]), torch.tensor([4]), h, h, h, SPACE, 3)
    assert state.finished.tolist() == [True]


class _Decoder:
    """A transition step that scores nothing: the search is left to the scores it is given."""

    def attention_key(self, encoded):
        return encoded

    def initial_state(self, encoded, mask):
        return torch.zeros(encoded.size(0), 2), torch.zeros(encoded.size(0), 2)

    def take_step(self, state, action_embeddings, keys, encoded, source_mask):
        n = state.num_hypotheses
        return torch.zeros(n, 2), torch.zeros(n, 2), torch.ones(n, 2) * len(state.hs), torch.zeros(n, encoded.size(1))


def test_the_search_follows_the_scores_within_what_the_stack_allows():
    # Prefers action 3 (inapplicable until two leaves are pushed), then 1 over 2, STOP as soon as it may.
    scores = torch.tensor([0.0, 2.0, 1.0, 3.0, 4.0])
    encoded, mask = torch.zeros(2, 4, 2), torch.ones(2, 4, dtype=torch.bool)
    for beams in (1, 3):
        actions, totals, projections = StackBeamSearch(beams, 6).search(
            _Decoder(), encoded, mask, torch.zeros(5, 2), SPACE, lambda p, a: scores.expand(p.size(0), -1),
        )
        assert actions[0, 0].tolist()[:2] == [1, 4]  # a leaf, then STOP
        assert actions.shape[:2] == (2, beams) and projections.shape[:3] == actions.shape
        assert (totals[:, :-1] >= totals[:, 1:]).all()  # best first
