// The faithful row plus the best row's recombination (ours_recomb.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'ours_recomb.libsonnet')
