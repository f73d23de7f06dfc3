// ProtoParser with ensemble/coverage_sup_ens5.libsonnet (coverage with supervised attention, ensemble of 5 by vote), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'coverage_sup_ens5.libsonnet')
