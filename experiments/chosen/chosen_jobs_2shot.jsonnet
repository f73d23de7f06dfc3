// The best row chosen on the development suite (chosen.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'chosen.libsonnet')
