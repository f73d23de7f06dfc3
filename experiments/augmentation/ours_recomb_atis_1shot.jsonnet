// The faithful row plus the best row's recombination (ours_recomb.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'ours_recomb.libsonnet')
