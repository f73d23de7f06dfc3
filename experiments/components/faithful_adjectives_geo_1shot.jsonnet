// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'faithful_adjectives.libsonnet')
