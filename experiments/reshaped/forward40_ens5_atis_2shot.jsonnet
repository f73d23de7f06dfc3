// ProtoParser with reshaped/forward40_ens5.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'forward40_ens5.libsonnet')
