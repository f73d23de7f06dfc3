// ProtoParser with augmentation/augmented.libsonnet, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'augmented.libsonnet')
