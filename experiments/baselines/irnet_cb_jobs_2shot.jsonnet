// IRNet, cb setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('jobs', 2, 'cb')
