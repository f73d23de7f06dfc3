// words/contextual_schema_bias.libsonnet (the best variant) as an ensemble of 5: fine-tuning runs
// five times from the same pre-trained archive (seeds FEWSHOT_SEED + 0..4) and the five parsers
// vote on each LF (models/ensemble.py). Pre-training is unchanged, so the archives are contextual-schema's.
(import '../words/contextual_schema_bias.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
