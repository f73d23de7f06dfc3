// The faithful row plus the best row's recombination (ours_recomb.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'ours_recomb.libsonnet')
