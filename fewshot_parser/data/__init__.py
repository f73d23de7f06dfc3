from fewshot_parser.data.data_loaders import EpisodeDataLoader
from fewshot_parser.data.dataset_readers import (
    AtisReader,
    FewShotReader,
    FewShotSeq2SeqReader,
    GeoQueryReader,
    JobsReader,
)
from fewshot_parser.data.token_indexers import PackagedTransformerMismatchedIndexer
