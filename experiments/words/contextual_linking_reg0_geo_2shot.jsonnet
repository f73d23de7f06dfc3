// ProtoParser with words/contextual_linking.libsonnet, geo 2-shot: the reg0 variant changes ATIS only.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'contextual_linking.libsonnet')
