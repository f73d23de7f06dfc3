// The best row without recombination (norecomb.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'norecomb.libsonnet')
