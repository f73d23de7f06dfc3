// PT-MAML (pt setting), jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('jobs', 1)
