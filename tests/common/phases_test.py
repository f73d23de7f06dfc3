"""Seconds per phase (`fewshot_parser.common.phases`): nested phases count only their own time."""
import time

from fewshot_parser.common.phases import format_phases, phase, take_phases


def test_nested_phases_exclude_inner_time_and_taking_clears():
    take_phases()
    with phase("outer"):
        time.sleep(0.05)
        with phase("inner"):
            time.sleep(0.1)
    with phase("inner"):
        time.sleep(0.05)
    seconds = take_phases()
    assert list(seconds) == ["outer", "inner"]  # the order they first ran
    assert 0.04 < seconds["outer"] < 0.1  # not the 0.15 s its block lasted
    assert 0.14 < seconds["inner"] < 0.3
    assert take_phases() == {}


def test_a_failing_block_still_counts_and_the_summary_skips_tiny_phases():
    take_phases()
    try:
        with phase("failing"):
            raise KeyError("x")
    except KeyError:
        pass
    assert "failing" in take_phases()
    assert format_phases({"reading": 2.04, "nothing": 0.01, "training": 10.0}) == "reading 2.0 s, training 10.0 s"
