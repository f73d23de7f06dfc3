// chosen.libsonnet as an ensemble of 5 fine-tuning runs from one pre-trained archive (seeds
// FEWSHOT_SEED + 0..4) voting on each LF, as the best row has.
(import 'chosen.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
