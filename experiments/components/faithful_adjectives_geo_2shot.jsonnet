// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_adjectives.libsonnet')
