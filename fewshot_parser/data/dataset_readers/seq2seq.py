from typing import Any, Dict, List, Optional

from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import MetadataField
from allennlp.data.tokenizers import WhitespaceTokenizer
from allennlp_models.generation.dataset_readers.seq2seq import Seq2SeqDatasetReader

from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.signature_check import SignatureCheck
from fewshot_parser.logical_forms.tree import check_formalism


@DatasetReader.register("fewshot_seq2seq")
class FewShotSeq2SeqReader(Seq2SeqDatasetReader):
    """
    allennlp-models' `seq2seq` reader for the benchmark files, as the sequence-to-sequence
    baselines see them: the utterance as source and the LF tokens as target. It adds what the
    original lacks here: data paths resolved against `$FEWSHOT_DATA_DIR` with `+` and `*N` (see
    `fewshot_parser.data.examples`), malformed lines reported with file and line (or skipped and
    logged) instead of dropped silently, and a `metadata` field with the gold LF for exact match.

    Registered as a `DatasetReader` with name "fewshot_seq2seq".

    # Parameters

    formalism : `str`
        `"lambda"` or `"prolog"`; used to validate the logical forms.
    skip_invalid : `bool`, optional (default = `False`)
        Skip (and log) malformed lines instead of raising an error.
    check_signatures : `bool`, optional (default = `True`)
        Check predicate arities against the signatures learned from the training file (the
        `train.txt` beside the first file read; see `fewshot_parser.data.signature_check`).
    overloaded_predicates : `Dict[str, List[int]]`, optional
        Predicates that may take each of the listed arities (default: the benchmark's own).
    """

    def __init__(
        self,
        formalism: str,
        skip_invalid: bool = False,
        check_signatures: bool = True,
        overloaded_predicates: Optional[Dict[str, List[int]]] = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("source_tokenizer", WhitespaceTokenizer())
        kwargs.setdefault("target_tokenizer", WhitespaceTokenizer())
        super().__init__(**kwargs)
        self._formalism = check_formalism(formalism)
        self._skip_invalid = skip_invalid
        self._signatures = SignatureCheck(self._formalism, check_signatures, None, overloaded_predicates)

    def _read(self, file_path: str):
        signatures = self._signatures.signatures_for(file_path)
        examples = read_examples(file_path, self._formalism, self._skip_invalid, signatures)
        for example in self.shard_iterable(examples):
            yield self.text_to_instance(" ".join(example.utterance), example.logical_form)

    def text_to_instance(self, source_string: str, target_string: Optional[str] = None) -> Instance:  # type: ignore
        instance = super().text_to_instance(source_string, target_string)
        instance.add_field("metadata", MetadataField({"formalism": self._formalism, "logical_form": target_string}))
        return instance
