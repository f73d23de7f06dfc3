// The best row with 40 reshaped pairs and adjectives (adjectives.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'adjectives.libsonnet')
