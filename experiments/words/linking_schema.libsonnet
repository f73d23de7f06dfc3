// linking.libsonnet (random words, lexicon, lexical linking) plus IRNet's schema encoding
// (`irnet_parser`): predicate names are embedded with the same random word table as the utterance.
(import 'linking.libsonnet') + { variant: 'linking-schema', schema_encoding: true }
