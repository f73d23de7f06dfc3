// coverage/coverage.libsonnet (the best row) as an ensemble of 5 fine-tuning runs from one pre-trained
// archive (seeds FEWSHOT_SEED + 0..4) that vote on each LF (models/ensemble.py). Vote, not rescore:
// on shuffle 0 the vote was the better rule on three of four columns with the same members
// (lab/results/tuning_ensemble/combine_s0.md). Pre-training is unchanged: the archives are the coverage variant's.
(import '../coverage/coverage.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
