// The faithful row plus the best row's recombination (ours_recomb.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'ours_recomb.libsonnet')
