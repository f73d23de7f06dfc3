"""
What importing fewshot_parser changes in the `allennlp` commands besides registering the plugin
(docs/errors.md describes each for users):

- expected user errors end a command with their one-line message (`fewshot_parser.common.errors`;
  `FEWSHOT_VERBOSE=1` shows the traceback);
- `allennlp train` removes the serialization directory of a run that failed before saving anything,
  and writes `model.tar.gz` atomically (`fewshot_parser.training.guarded_train`);
- `allennlp predict` writes its output atomically and reports bad input lines one by one
  (`fewshot_parser.commands.guarded_predict`);
- torch's thread count gets a default suited to our small models (`fewshot_parser.common.threads`);
- a missing, truncated or foreign model archive is a one-line error (`fewshot_parser.common.archives`);
- `-o` overrides merge into the config, and an unknown key is an error naming where it was found
  (`fewshot_parser.common.overrides`);
- AllenNLP's advice to rename our label namespaces is not logged
  (`fewshot_parser.common.namespace_warnings`).
"""


def install_cli_behaviour() -> None:
    from fewshot_parser.commands import guarded_predict
    from fewshot_parser.common import archives, overrides
    from fewshot_parser.common.errors import install_excepthook
    from fewshot_parser.common.namespace_warnings import silence_namespace_advice
    from fewshot_parser.common.threads import apply_thread_defaults
    from fewshot_parser.training import guarded_train

    install_excepthook()
    guarded_train.install()
    guarded_predict.install()
    archives.install()
    overrides.install()
    silence_namespace_advice()
    apply_thread_defaults()
