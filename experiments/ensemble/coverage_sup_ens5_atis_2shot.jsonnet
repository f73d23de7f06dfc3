// ProtoParser with ensemble/coverage_sup_ens5.libsonnet (coverage with supervised attention, ensemble of 5 by vote), atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage_sup_ens5.libsonnet')
