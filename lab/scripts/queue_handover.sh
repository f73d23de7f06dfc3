#!/bin/bash
# Hands the queue's worktree over to the checkout's current commit: waits for a running grid (PID, or
# none) to end, keeps the rows the queue recorded, moves the worktree to this checkout's HEAD and starts
# run_suites.sh there (it skips what is recorded and still reproducible). Kill the queue's bash first, not
# its grid, so that the grid's step finishes:
#
#   kill <run_suites.sh pid>; nohup bash lab/scripts/queue_handover.sh ../q <run-grid pid> > /tmp/handover.log 2>&1 &
#
# Never edit run_suites.sh in the worktree while it runs (bash reads it as it goes).
set -eu
queue=$(cd "$1" && pwd)
checkout=$(cd "$(dirname "$0")/../.." && pwd)
grid=${2:-}
if [ -n "$grid" ]; then
  while kill -0 "$grid" 2>/dev/null; do sleep 30; done
fi
kept=$(mktemp -d)
for suite in dev dev-frequent; do
  if [ -f "$queue/results/$suite/runs.csv" ]; then cp "$queue/results/$suite/runs.csv" "$kept/$suite.csv"; fi
done
git -C "$queue" checkout -f --detach "$(git -C "$checkout" rev-parse HEAD)"
for suite in dev dev-frequent; do
  if [ -f "$kept/$suite.csv" ]; then cp "$kept/$suite.csv" "$queue/results/$suite/runs.csv"; fi
done
cd "$queue"
PYTHONPATH=$queue:$queue/lab exec bash lab/scripts/run_suites.sh >> runs/suites.log 2>&1
