// IRNet, cb setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('geo', 2, 'cb')
