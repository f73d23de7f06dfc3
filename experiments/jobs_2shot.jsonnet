// ProtoParser, jobs 2-shot, on split $FEWSHOT_SPLIT (default 1): pre-train (or reuse
// $FEWSHOT_PRETRAIN_DIR/jobs-ours), fine-tune on the support set, evaluate on the query set.
(import 'common/fewshot.libsonnet').experiment('jobs', 2)
