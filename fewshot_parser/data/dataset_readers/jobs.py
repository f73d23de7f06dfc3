from allennlp.data import DatasetReader

from fewshot_parser.data.dataset_readers.fewshot_reader import FewShotReader


@DatasetReader.register("fewshot_jobs")
class JobsReader(FewShotReader):
    """
    The Jobs benchmark (prolog logical forms); all other options as in `FewShotReader`.

    Registered as a `DatasetReader` with name "fewshot_jobs".
    """

    default_formalism = "prolog"
