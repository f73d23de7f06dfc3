// PT-MAML (pt setting), atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/ptmaml.libsonnet').experiment('atis', 2)
