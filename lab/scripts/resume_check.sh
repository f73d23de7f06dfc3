#!/bin/bash
# Whether a pre-training killed after some epochs and started again gives the uninterrupted one's
# losses: pre-trains the best row's jobs dev draw 1 into runs/scratch-pre2, kills it once epoch
# $STOP_AFTER (default 13) is written, resumes it with the same command, and prints both runs' losses
# beside an uninterrupted pre-training in runs/scratch-pre (made first when missing).
#
#   bash lab/scripts/resume_check.sh
set -u
cd "$(dirname "$0")/../.."
stop_after=${STOP_AFTER:-13}
run() {  # run PRETRAIN_DIR RUNS_DIR
  FEWSHOT_PRETRAIN_DIR=$1 OMP_NUM_THREADS=1 .venv/bin/allennlp run-grid --jobs 1 --threads 1 --redo-recorded \
    --systems-table lab/systems.jsonnet --suite dev --datasets jobs --draws 1 --shots 1 --samples 0 \
    --systems chosen-fallback-roles --runs-dir "$2" --results "/tmp/$(basename "$2").csv" > "/tmp/$(basename "$2").log" 2>&1
}
[ -f runs/scratch-pre/dev/draw_1/jobs-contextual-schema/model.tar.gz ] || run runs/scratch-pre runs/scratch-det
run runs/scratch-pre2 runs/scratch-det2 &
driver=$!
partial=runs/scratch-pre2/dev/draw_1/jobs-contextual-schema.partial
while [ ! -f "$partial/metrics_epoch_${stop_after}.json" ]; do sleep 2; done
pkill -P "$driver"; kill "$driver"; sleep 3
pkill -f "grid_tasks lab/systems.jsonnet#chosen-fallback-roles/jobs_1shot"
sleep 5
run runs/scratch-pre2 runs/scratch-det2
for dir in runs/scratch-pre runs/scratch-pre2; do
  .venv/bin/python - "$dir/dev/draw_1/jobs-contextual-schema" <<'PY'
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + "/metrics_epoch_*.json"), key=lambda f: int(f.rsplit("_", 1)[1][:-5]))
print(sys.argv[1], [round(json.load(open(f))["training_loss"], 6) for f in files])
PY
done
