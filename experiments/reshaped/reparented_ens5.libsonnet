// reshaped40_ens5.libsonnet with re-parented recombination (fewshot_parser/data/recombination/reparented.py): also
// up to `reparented_pairs` synthetic pairs per new predicate under operators its support set does not
// put it under (`argmin` when the support shows `argmax`). Decoding and pre-training are the best row's.
(import 'reshaped40_ens5.libsonnet') + {
  augmentation+: { reparented_pairs: 10 },
}
