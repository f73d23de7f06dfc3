// The best row chosen on the development suite (chosen.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'chosen.libsonnet')
