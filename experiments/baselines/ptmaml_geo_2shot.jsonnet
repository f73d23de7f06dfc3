// PT-MAML (pt setting), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('geo', 2)
