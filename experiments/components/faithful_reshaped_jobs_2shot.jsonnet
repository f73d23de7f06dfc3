// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'faithful_reshaped.libsonnet')
