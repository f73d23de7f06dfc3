// ProtoParser with evidence/evidence.libsonnet, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'evidence.libsonnet')
