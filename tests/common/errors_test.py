import sys

from allennlp.common.checks import ConfigurationError

from fewshot_parser.commands.cli_behaviour import install_excepthook
from fewshot_parser.common.errors import UserError, user_message, wrap_excepthook


def raised(error):
    try:
        raise error
    except BaseException as caught:
        return type(caught), caught, caught.__traceback__


def test_user_errors_print_their_message_alone_and_others_keep_the_traceback(capsys, monkeypatch):
    passed = []
    hook = wrap_excepthook(lambda *info: passed.append(info[1]))
    monkeypatch.delenv("FEWSHOT_VERBOSE", raising=False)
    monkeypatch.delenv("ALLENNLP_DEBUG", raising=False)
    hook(*raised(ConfigurationError("data/x.txt:3: empty logical form")))
    hook(*raised(FileNotFoundError(2, "No such file or directory", "model.tar.gz")))
    assert capsys.readouterr().err == "data/x.txt:3: empty logical form\nmodel.tar.gz: No such file or directory\n"
    bug = KeyError("shuffle")
    hook(*raised(bug))
    monkeypatch.setenv("FEWSHOT_VERBOSE", "1")
    verbose = UserError("x: y")
    hook(*raised(verbose))
    assert passed == [bug, verbose] and capsys.readouterr().err == ""
    assert wrap_excepthook(hook) is hook  # installing twice wraps once


def test_allennlp_train_logging_keeps_the_hook(tmp_path):
    from allennlp.common import logging as common_logging

    install_excepthook()
    previous = sys.excepthook
    try:
        common_logging.prepare_global_logging(str(tmp_path))  # replaces sys.excepthook, as `allennlp train` does
        assert getattr(sys.excepthook, "_fewshot_wrapped", False)
    finally:
        sys.excepthook = previous
        import logging

        for handler in list(logging.getLogger().handlers):
            if getattr(handler, "baseFilename", "").startswith(str(tmp_path)):
                logging.getLogger().removeHandler(handler)
                handler.close()
    assert user_message(UserError("a: b")) == "a: b"
