// coverage/coverage.libsonnet (the best row) as an ensemble of 5 fine-tuning runs from one pre-trained
// archive (seeds FEWSHOT_SEED + 0..4), combined by `rescore`: every member scores every member's
// template and the best mean log-probability, less the entity-coverage penalty, wins (models/ensemble.py).
// Pre-training is unchanged, so the archives are the coverage variant's.
(import '../coverage/coverage.libsonnet') + { ensemble+: { size: 5, combine: 'rescore' } }
