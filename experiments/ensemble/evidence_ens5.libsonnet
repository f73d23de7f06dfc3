// evidence/evidence.libsonnet (the best row: the missing-evidence penalty on the coverage row) as an
// ensemble of 5 fine-tuning runs from one pre-trained archive (seeds FEWSHOT_SEED + 0..4) that vote on
// each LF (models/ensemble.py). Both parts were chosen on shuffle 0: the vote in
// lab/results/tuning_ensemble/combine_s0.md, the penalty's weight in lab/results/tuning_evidence/sweep.md.
// Pre-training is unchanged: the archives are the coverage variant's.
(import '../evidence/evidence.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
