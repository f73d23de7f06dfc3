// ProtoParser with words/contextual_linking_reg0.libsonnet (no attention regularization), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'contextual_linking_reg0.libsonnet')
