"""
What importing fewshot_parser changes in the `allennlp` commands besides registering the plugin
(docs/errors.md describes each for users):

- expected user errors end a command with their one-line message (`fewshot_parser.common.errors`;
  `FEWSHOT_VERBOSE=1` shows the traceback);
- `allennlp train` removes the serialization directory of a run that failed before saving anything,
  and writes `model.tar.gz` atomically (`fewshot_parser.training.guarded_train`);
- `allennlp predict` writes its output atomically and reports bad input lines one by one
  (`fewshot_parser.commands.guarded_predict`);
- torch's thread count gets a default suited to our small models (`fewshot_parser.common.threads`).
"""


def install_cli_behaviour() -> None:
    from fewshot_parser.commands import guarded_predict
    from fewshot_parser.common.errors import install_excepthook
    from fewshot_parser.common.threads import apply_thread_defaults
    from fewshot_parser.training import guarded_train

    install_excepthook()
    guarded_train.install()
    guarded_predict.install()
    apply_thread_defaults()
