// ProtoParser with words/contextual_linking_reg0.libsonnet (no attention regularization), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'contextual_linking_reg0.libsonnet')
