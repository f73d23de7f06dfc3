// ProtoParser with ensemble/coverage_ens5.libsonnet (coverage, ensemble of 5 by vote), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'coverage_ens5.libsonnet')
