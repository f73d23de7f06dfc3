// faithful_reshaped.libsonnet whose reshaped pairs use the adjective of a support superlative
// (data/recombination/adjectives.py): adjectives added to the faithful row, on top of the reshaped
// pairs they need (issue 52, item 6). Fine-tuning only.
(import 'faithful_reshaped.libsonnet') + { augmentation+: { adjectives: true } }
