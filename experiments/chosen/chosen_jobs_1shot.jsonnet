// The best row chosen on the development suite (chosen.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'chosen.libsonnet')
