// ProtoParser with ensemble/coverage_rescore.libsonnet (coverage, ensemble of 5 by rescoring), atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'coverage_rescore.libsonnet')
