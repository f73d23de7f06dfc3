// The best row without recombination (norecomb.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'norecomb.libsonnet')
