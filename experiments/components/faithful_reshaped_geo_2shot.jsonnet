// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_reshaped.libsonnet')
