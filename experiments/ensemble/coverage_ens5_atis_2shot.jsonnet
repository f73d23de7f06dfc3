// ProtoParser with ensemble/coverage_ens5.libsonnet (coverage, ensemble of 5 by vote), atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage_ens5.libsonnet')
