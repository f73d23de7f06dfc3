// The best row with 40 reshaped pairs and adjectives (adjectives.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'adjectives.libsonnet')
