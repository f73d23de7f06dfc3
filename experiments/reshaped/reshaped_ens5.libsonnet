// The best row (ensemble/slot_types_ens5.libsonnet) with reshaped recombination
// (fewshot_parser/data/recombination/reshaped.py): besides the forward and reverse pairs, up to
// `reshaped_pairs` synthetic pairs per new predicate with argument shapes its support set does not
// show (`( area:i <e:s> )` when the support shows only `( area:i <v> )`), so that those GEN actions
// are in the fine-tuning vocabulary. Decoding and pre-training are the best row's; its archives are shared.
(import '../ensemble/slot_types_ens5.libsonnet') + {
  augmentation+: { reshaped_pairs: 10 },
}
