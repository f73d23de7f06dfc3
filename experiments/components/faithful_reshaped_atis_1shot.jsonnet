// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'faithful_reshaped.libsonnet')
