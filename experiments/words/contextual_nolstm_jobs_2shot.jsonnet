// ProtoParser with words/contextual_nolstm.libsonnet, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'contextual_nolstm.libsonnet')
