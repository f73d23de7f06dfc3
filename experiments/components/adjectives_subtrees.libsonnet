// adjectives.libsonnet with 10 subtree pairs per support example whose LF denotes an entity
// ("where is <the highest point in s0>"; data/recombination/subtrees.py): subtree pairs added to the
// best row with reshaped pairs and adjectives (issue 52, item 6). Fine-tuning only.
(import 'adjectives.libsonnet') + { augmentation+: { subtree_pairs: 10 } }
