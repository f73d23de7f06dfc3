// The faithful row as an ensemble of 5 fine-tunings from its pre-trained archive (seeds
// FEWSHOT_SEED + 0..4) voting on each LF: the ensemble added to the faithful row (issue 52, item 6).
// Fine-tuning only.
(import '../common/fewshot.libsonnet').authors + { ensemble+: { size: 5, combine: 'vote' } }
