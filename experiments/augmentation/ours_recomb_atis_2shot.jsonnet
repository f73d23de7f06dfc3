// The faithful row plus the best row's recombination (ours_recomb.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'ours_recomb.libsonnet')
