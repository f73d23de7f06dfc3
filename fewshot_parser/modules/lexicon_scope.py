"""The predicate lexicon of `proto_parser`'s alignment features, scoped to what the split allows."""

import json
from typing import Dict, List, Optional

import torch

from fewshot_parser.data.lexicons import load_descriptions, predicate_labels, read_pairs, scope_lexicon
from fewshot_parser.data.predicate_names import load_lexicon
from fewshot_parser.modules.parser_parts import ParserParts


class LexiconScope:
    """
    The lexicon the string-similarity, lexical-linking and supervised-attention tables use: the
    hand-written one with the entries of new predicates cut down to the words of their names and
    support utterances, plus the user's descriptions (`fewshot_parser.data.lexicons`). Scoped once per
    vocabulary, and saved with the weights (`as_tensor`, `load`), so that an archive decodes the same
    anywhere, without the split's data or description files.

    # Parameters

    lexicon : `str`, optional
        A shipped lexicon (`jobs`, `geo`, `atis`) or a JSON file (`predicate_names.load_lexicon`).
    descriptions : `str`, optional
        The user's description file, read when the lexicon is first scoped (not when built: a loaded
        archive keeps its scoped lexicon and needs no file).
    training_data, support_data : `str`, optional
        The split's files: a predicate the training LFs never use is new; the support utterances give a
        new predicate the lexicon words they hold.
    handwritten_new_predicate_entries : `bool`, optional (default = `False`)
        Keep every hand-written word of the new predicates too (this leaks evaluation data).
    """

    def __init__(
        self,
        lexicon: Optional[str] = None,
        descriptions: Optional[str] = None,
        training_data: Optional[str] = None,
        support_data: Optional[str] = None,
        handwritten_new_predicate_entries: bool = False,
    ) -> None:
        self.handwritten = load_lexicon(lexicon)
        self.descriptions_path = descriptions
        self.training_data = training_data
        self.support_data = support_data
        self.handwritten_new_predicate_entries = handwritten_new_predicate_entries
        self.stored: Optional[Dict[str, List[str]]] = None

    def lexicon(self, parser: ParserParts) -> Dict[str, List[str]]:
        """
        The scoped lexicon (a copy); without the split's training data, new predicates are those of
        `parser.new_action_mask`.
        """
        if self.stored is None:
            self.stored = self._scope(parser)
        return {predicate: list(words) for predicate, words in self.stored.items()}

    def _scope(self, parser: ParserParts) -> Dict[str, List[str]]:
        descriptions = load_descriptions(self.descriptions_path)
        if not self.handwritten and not descriptions:
            return {}
        if self.training_data:
            known = predicate_labels(read_pairs(self.training_data))
        else:
            mask = parser.new_action_mask.tolist()
            known = {
                p
                for index, action in enumerate(parser.action_space.actions)
                if action is not None and not (index < len(mask) and mask[index])
                for p in action.predicates
            }
        support = read_pairs(self.support_data) if self.support_data else []
        return scope_lexicon(self.handwritten, known, support, descriptions, self.handwritten_new_predicate_entries)

    def reset(self) -> None:
        """The vocabulary grew (new predicates): scope again when next asked."""
        self.stored = None

    def as_tensor(self, parser: ParserParts) -> torch.Tensor:
        """The scoped lexicon as UTF-8 bytes of its JSON, for the state dict."""
        return torch.tensor(list(json.dumps(self.lexicon(parser), sort_keys=True).encode("utf-8")), dtype=torch.uint8)

    def load(self, stored: torch.Tensor) -> None:
        """Restores a lexicon saved by `as_tensor`."""
        self.stored = json.loads(bytes(stored.tolist()).decode("utf-8"))
