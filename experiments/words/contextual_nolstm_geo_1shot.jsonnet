// ProtoParser with words/contextual_nolstm.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'contextual_nolstm.libsonnet')
