// faithful_adjectives.libsonnet with 10 subtree pairs per support example whose LF denotes an entity
// (data/recombination/subtrees.py): subtree pairs added to the faithful row, on top of reshaped pairs
// and adjectives (issue 52, item 6). Fine-tuning only.
(import 'faithful_adjectives.libsonnet') + { augmentation+: { subtree_pairs: 10 } }
