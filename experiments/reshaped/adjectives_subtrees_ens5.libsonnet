// adjectives_ens5.libsonnet with subtree recombination (subtrees_ens5.libsonnet): the adjective
// pairs ("how high is r0") are templates too, so "how high is the highest point in s0" is made.
(import 'adjectives_ens5.libsonnet') + {
  augmentation+: { subtree_pairs: 10 },
}
