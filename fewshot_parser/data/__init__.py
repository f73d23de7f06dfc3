from fewshot_parser.data.dataset_readers import (
    AtisReader,
    FewShotReader,
    FewShotSeq2SeqReader,
    GeoQueryReader,
    JobsReader,
)
