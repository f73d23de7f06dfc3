#!/bin/bash
# Every table the development suites feed, regenerated from the recorded rows, in the order they depend
# on each other: the queue's rows copied in (when it runs from a worktree, `run_suites.sh`), the
# pre-training ledger, the component table (lab/results/components.md and its block in docs/results.md),
# the power table (lab/results/suite_size.md), the suites' tables (results/dev*/table.md) and README's
# tables (`allennlp report`), then the tests that check the documents agree with them.
#
#   bash lab/scripts/regenerate_tables.sh [QUEUE_WORKTREE]
#
# The two reports take about six minutes each beside a 2-process grid.
set -eu
cd "$(dirname "$0")/../.."
export FEWSHOT_SYSTEMS_TABLES=lab/systems.jsonnet OMP_NUM_THREADS=1
queue=${1:-}
if [ -n "$queue" ]; then
  for rows in results/runs.csv results/dev/runs.csv results/dev-frequent/runs.csv; do
    if [ -f "$queue/$rows" ]; then cp "$queue/$rows" "$rows"; fi
  done
fi
python=.venv/bin/python
allennlp=.venv/bin/allennlp
pretrain=${FEWSHOT_PRETRAIN_DIR:-runs/pretrain-82}
if [ -d "$pretrain" ]; then $python lab/scripts/pretraining_minutes.py "$pretrain" > /dev/null; fi
$python lab/scripts/component_table.py --out lab/results/components.md --docs docs/results.md | tail -1
# The rows with modifier pairs read off the suite (lab/results/composite/): added to the best row before
# them and to the faithful row, and the best row's own (types asked alone) against the row without them.
$python lab/scripts/composite_row.py --with best-modifiers --without best-no-modifiers \
  --reach lab/results/reach/best-modifiers.csv --suite dev > lab/results/composite/best-modifiers_dev.md
$python lab/scripts/composite_row.py --with ours-modifiers --without ours \
  --reach lab/results/reach/ours-modifiers.csv --suite dev > lab/results/composite/ours-modifiers_dev.md
for suite in dev dev-frequent; do
  reach=lab/results/reach/best.csv
  if [ "$suite" = dev-frequent ]; then reach=lab/results/reach/frequent/best.csv; fi
  $python lab/scripts/composite_row.py --with best --without best-no-modifiers --reach "$reach" --suite "$suite" \
    > "lab/results/composite/best_$suite.md"
done
$python lab/scripts/suite_size.py --suites dev dev-frequent --since 62ec330 --pretrain-dir "$pretrain" --best best \
  --out lab/results/suite_size.md > /dev/null
for suite in dev dev-frequent; do
  $allennlp report --suite "$suite" --results "results/$suite/runs.csv" 2>&1 | grep -v INFO | tail -1
done
$allennlp report 2>&1 | grep -v INFO | tail -1
$python -m pytest -q tests/docs_test.py tests/commands/component_table_test.py 2>&1 | tail -1
