// The faithful row with recombination and 40 reshaped pairs (faithful_reshaped.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'faithful_reshaped.libsonnet')
