// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_adjectives.libsonnet')
