// ProtoParser with ensemble/coverage_rescore.libsonnet (coverage, ensemble of 5 by rescoring), jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'coverage_rescore.libsonnet')
