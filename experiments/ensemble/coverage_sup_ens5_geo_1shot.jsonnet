// ProtoParser with ensemble/coverage_sup_ens5.libsonnet (coverage with supervised attention, ensemble of 5 by vote), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'coverage_sup_ens5.libsonnet')
