// ProtoParser with ensemble/coverage_rescore.libsonnet (coverage, ensemble of 5 by rescoring), geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'coverage_rescore.libsonnet')
