// The best row chosen on the development suite (chosen.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'chosen.libsonnet')
