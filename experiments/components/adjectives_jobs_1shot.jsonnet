// The best row with 40 reshaped pairs and adjectives (adjectives.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'adjectives.libsonnet')
