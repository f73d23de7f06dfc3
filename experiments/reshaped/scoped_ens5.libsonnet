// reshaped40_ens5.libsonnet with variable scoping (fewshot_parser/modules/decoding/variable_scoping.py): a decoded
// LF whose variables are ill-scoped gets its most probable well-scoped naming. Decoding only.
(import 'reshaped40_ens5.libsonnet') + {
  variable_scoping: true,
}
