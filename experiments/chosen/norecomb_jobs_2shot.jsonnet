// The best row without recombination (norecomb.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'norecomb.libsonnet')
