// The faithful row with recombination, reshaped pairs and adjectives (faithful_adjectives.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'faithful_adjectives.libsonnet')
