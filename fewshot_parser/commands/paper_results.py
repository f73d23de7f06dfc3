"""
The paper's numbers (`paper_results.json`, beside this module): the exact match of every row of its
Tables 1 and 2, which `allennlp report` and `allennlp run-grid`'s summary print beside ours.
"""

import json
import os
from typing import Dict, Tuple

PAPER_FILE = os.path.join(os.path.dirname(__file__), "paper_results.json")


def paper_numbers() -> Dict[Tuple[str, str], Dict[str, float]]:
    """(system, setting) -> column (`geo_1shot`, ...) -> the paper's exact match."""
    with open(PAPER_FILE) as handle:
        data = json.load(handle)
    return {(r["system"], r["setting"]): r["scores"] for r in data["rows"]}
