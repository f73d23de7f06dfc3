// IRNet, pt setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/irnet.libsonnet').experiment('atis', 1, 'pt')
