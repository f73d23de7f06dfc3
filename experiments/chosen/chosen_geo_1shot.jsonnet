// The best row chosen on the development suite (chosen.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'chosen.libsonnet')
