// Support-set recombination (fewshot_parser/data/augmentation.py) on top of the best variant
// (words/contextual_schema_bias.libsonnet): before fine-tuning, each new predicate is put into
// training templates (forward pairs) and its support templates get other known content (reverse
// pairs). Fine-tuning only, so the pre-trained archive is contextual-schema's.
(import '../words/contextual_schema_bias.libsonnet') + {
  augmentation: { pairs: 20, reverse_pairs: 10, support_repeat: 4, replay: 0, lexicon: true },
}
