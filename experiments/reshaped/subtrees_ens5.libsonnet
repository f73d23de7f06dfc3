// reshaped40_ens5.libsonnet with subtree recombination: a support LF that denotes an entity ("the
// highest point in s0") placed whole where a template has an entity ("where is m0"), up to 10 pairs
// per support example (fewshot_parser/data/recombination/subtrees.py). Everything else is the same.
(import 'reshaped40_ens5.libsonnet') + {
  augmentation+: { subtree_pairs: 10 },
}
