import pytest

from fewshot_parser.models.metrics import LogicalFormExactMatch, exact_match, unordered_match


def test_exact_match_is_string_equality():
    assert exact_match("( f $0 )", "( f  $0 )")
    assert not exact_match("( and ( a ) ( b ) )", "( and ( b ) ( a ) )")
    assert not exact_match(None, "( f )")


def test_unordered_match_treats_conjunctions_as_multisets():
    assert unordered_match("( and ( a $0 ) ( b $0 ) )", "( and ( b $0 ) ( a $0 ) )", "lambda")
    assert not unordered_match("( and ( a $0 ) ( a $0 ) )", "( and ( a $0 ) ( b $0 ) )", "lambda")
    assert not unordered_match("( argmax $0 ( a $0 ) ( b $0 ) )", "( argmax $0 ( b $0 ) ( a $0 ) )", "lambda")
    assert unordered_match("loc ( ANS , locid0 ) , job ( ANS )", "job ( ANS ) , loc ( ANS , locid0 )", "prolog")
    assert not unordered_match("( and ( a $0 )", "( and ( a $0 ) )", "lambda")


def test_metric_accumulates_and_resets():
    metric = LogicalFormExactMatch()
    metric(["( and ( a ) ( b ) )", "( c )", None], ["( and ( b ) ( a ) )", "( c )", "( d )"], "lambda")
    values = metric.get_metric(reset=True)
    assert values["exact_match"] == pytest.approx(1 / 3)
    assert values["exact_match_unordered"] == pytest.approx(2 / 3)
    assert metric.get_metric()["exact_match"] == 0.0
