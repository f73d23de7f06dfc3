// ProtoParser with ensemble/coverage_rescore.libsonnet (coverage, ensemble of 5 by rescoring), geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'coverage_rescore.libsonnet')
