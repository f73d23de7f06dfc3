// PT-MAML (pt setting), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('geo', 1)
