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
# What the queue writes: the official and suites' rows and the pre-training minutes (kept beyond the pre-trainings).
files="results/runs.csv results/dev/runs.csv results/dev-frequent/runs.csv lab/results/pretraining_minutes.csv"
for file in $files; do
  if [ -f "$queue/$file" ]; then mkdir -p "$kept/$(dirname "$file")" && cp "$queue/$file" "$kept/$file"; fi
done
git -C "$queue" checkout -f --detach "$(git -C "$checkout" rev-parse HEAD)"
for file in $files; do
  if [ -f "$kept/$file" ]; then cp "$kept/$file" "$queue/$file"; fi
done
cd "$queue"
PYTHONPATH=$queue:$queue/lab exec bash lab/scripts/run_suites.sh >> runs/suites.log 2>&1
