// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'faithful_reshaped.libsonnet')
