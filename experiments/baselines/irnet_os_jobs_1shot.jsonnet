// IRNet, os setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('jobs', 1, 'os')
