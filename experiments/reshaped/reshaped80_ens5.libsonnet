// reshaped_ens5.libsonnet with up to 80 reshaped pairs per new predicate instead of 10; everything
// else (forward and reverse pairs, decoding, the shared pre-trained archives) is the same.
(import 'reshaped_ens5.libsonnet') + {
  augmentation+: { reshaped_pairs: 80 },
}
