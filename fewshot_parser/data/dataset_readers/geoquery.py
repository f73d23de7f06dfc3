from allennlp.data import DatasetReader

from fewshot_parser.data.dataset_readers.fewshot_reader import FewShotReader


@DatasetReader.register("fewshot_geoquery")
class GeoQueryReader(FewShotReader):
    """
    The GeoQuery benchmark (lambda logical forms); all other options as in `FewShotReader`.

    Registered as a `DatasetReader` with name "fewshot_geoquery".
    """

    default_formalism = "lambda"
