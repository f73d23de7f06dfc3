// The best row chosen on the development suite (chosen.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'chosen.libsonnet')
