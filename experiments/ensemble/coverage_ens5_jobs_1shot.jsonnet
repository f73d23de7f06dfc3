// ProtoParser with ensemble/coverage_ens5.libsonnet (coverage, ensemble of 5 by vote), jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'coverage_ens5.libsonnet')
