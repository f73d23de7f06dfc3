// ProtoParser with ensemble/coverage_sup_ens5.libsonnet (coverage with supervised attention, ensemble of 5 by vote), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'coverage_sup_ens5.libsonnet')
