// The best row without recombination (norecomb.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'norecomb.libsonnet')
