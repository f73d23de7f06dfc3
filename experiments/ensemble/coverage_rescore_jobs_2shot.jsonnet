// ProtoParser with ensemble/coverage_rescore.libsonnet (coverage, ensemble of 5 by rescoring), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'coverage_rescore.libsonnet')
