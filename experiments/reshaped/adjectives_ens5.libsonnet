// reshaped40_ens5.libsonnet whose reshaped pairs speak a new predicate that its support set shows
// only in a superlative with that superlative's adjective ("how high is r0" for `( elevation:i r0 )`
// when the support says "the highest point"; fewshot_parser/data/recombination/adjectives.py). Everything else is the same.
(import 'reshaped40_ens5.libsonnet') + {
  augmentation+: { adjectives: true },
}
