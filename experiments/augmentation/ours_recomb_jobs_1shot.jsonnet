// The faithful row plus the best row's recombination (ours_recomb.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'ours_recomb.libsonnet')
