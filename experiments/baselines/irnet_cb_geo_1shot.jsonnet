// IRNet, cb setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('geo', 1, 'cb')
