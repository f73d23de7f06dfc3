// ProtoParser with words/contextual_linking.libsonnet, geo 1-shot: the reg0 variant changes ATIS only.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'contextual_linking.libsonnet')
