// ProtoParser with augmentation/augmented.libsonnet, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'augmented.libsonnet')
