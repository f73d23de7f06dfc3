// ProtoParser with words/contextual_nolstm.libsonnet, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'contextual_nolstm.libsonnet')
