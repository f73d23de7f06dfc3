// ProtoParser with ensemble/coverage_ens5.libsonnet (coverage, ensemble of 5 by vote), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'coverage_ens5.libsonnet')
