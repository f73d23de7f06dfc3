// ProtoParser fine-tuned with replay (replay.libsonnet), jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'replay.libsonnet')
