// reshaped40_ens5.libsonnet with up to 40 forward pairs per new predicate instead of 20: more examples
// of the actions the support set shows. Everything else is the same.
(import 'reshaped40_ens5.libsonnet') + {
  augmentation+: { pairs: 40 },
}
