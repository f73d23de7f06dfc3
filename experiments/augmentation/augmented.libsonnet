// Support-set recombination (fewshot_parser/data/recombination/) on top of the best variant
// (words/contextual_schema_bias.libsonnet): before fine-tuning, each new predicate is put into
// training templates (forward pairs) and its support templates get other known content (reverse
// pairs). Fine-tuning only, so the pre-trained archive is contextual-schema's.
// The setting is the best of lab/scripts/augmentation_tuning.py on shuffle 0
// (lab/results/tuning_augmentation/augmentation.md: 'balanced-replay50'): support examples of
// less-augmented new predicates repeated to even them out, 50 training examples replayed, and the
// fine-tuning epochs cut so that the number of updates is about the support-only run's
// (the tuning script's 'same-steps' rule, computed per dataset and shot on shuffle 1).
(import '../words/contextual_schema_bias.libsonnet') + {
  augmentation: {
    pairs: 20, reverse_pairs: 10, support_repeat: 4, replay: 50, lexicon: true, balance: true,
    epochs: { jobs: 2, geo: { '1': 1, '2': 3 }, atis: 1 },
  },
}
