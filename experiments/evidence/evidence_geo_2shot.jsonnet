// ProtoParser with evidence/evidence.libsonnet, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'evidence.libsonnet')
