// The best row without recombination (norecomb.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'norecomb.libsonnet')
