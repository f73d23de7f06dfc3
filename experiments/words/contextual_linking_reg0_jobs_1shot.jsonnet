// ProtoParser with words/contextual_linking.libsonnet, jobs 1-shot: the reg0 variant changes ATIS only.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'contextual_linking.libsonnet')
