// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_reshaped.libsonnet')
