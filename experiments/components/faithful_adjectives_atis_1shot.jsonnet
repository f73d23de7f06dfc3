// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'faithful_adjectives.libsonnet')
