// The best row (chosen/suite_epochs.libsonnet, its fine-tuning epochs chosen on the suite) without
// the predicate lexicon and the lexical linking that reads it (issue 52, item 6: a pre-training
// component removed from the best row). String similarity, linking-free action scores and
// recombination's word choice then see only the predicates' names; MiniLM words and schema encoding
// stay, so it pre-trains its own archive.
(import '../chosen/suite_epochs.libsonnet') + {
  variant: 'contextual-schema-nolexicon',
  lexicon: false,
  lexical_linking: false,
  augmentation+: { lexicon: false },
}
