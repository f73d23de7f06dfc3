// The best row (chosen/suite_epochs.libsonnet, its fine-tuning epochs chosen on the suite) without
// IRNet's schema encoding (issue 52, item 6: a pre-training component removed from the best row).
// Its pre-training is the `contextual-linking` variant's (MiniLM words, lexicon, linking), so it
// shares that archive.
(import '../chosen/suite_epochs.libsonnet') + { variant: 'contextual-linking', schema_encoding: false }
