// The best row without recombination (norecomb.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'norecomb.libsonnet')
