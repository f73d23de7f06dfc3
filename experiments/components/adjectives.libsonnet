// reshaped.libsonnet whose reshaped pairs use the adjective of a support superlative where they
// replace an adjective ("how high is r0"; data/recombination/adjectives.py): adjectives added to the
// best row, which needs reshaped pairs (issue 52, item 6). Fine-tuning only.
(import 'reshaped.libsonnet') + { augmentation+: { adjectives: true } }
