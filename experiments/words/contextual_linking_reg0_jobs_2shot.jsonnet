// ProtoParser with words/contextual_linking.libsonnet, jobs 2-shot: the reg0 variant changes ATIS only.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'contextual_linking.libsonnet')
