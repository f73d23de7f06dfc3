// PT-MAML (pt setting), atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('atis', 1)
