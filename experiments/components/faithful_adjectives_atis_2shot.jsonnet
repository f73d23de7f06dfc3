// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'faithful_adjectives.libsonnet')
