// contextual_linking.libsonnet plus IRNet's schema encoding (the `schema_encoding` action scorer): a new predicate's action
// also scores by pointing at the encoding of its name, beside its prototype-initialised row.
(import 'contextual_linking.libsonnet') + { variant: 'contextual-schema', schema_encoding: true }
