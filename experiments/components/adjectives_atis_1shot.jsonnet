// The best row with 40 reshaped pairs and adjectives (adjectives.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'adjectives.libsonnet')
