// PT-MAML (pt setting), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('jobs', 2)
