// IRNet, os setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('atis', 2, 'os')
