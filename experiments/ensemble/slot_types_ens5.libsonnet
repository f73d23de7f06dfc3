// slot_types/slot_types.libsonnet (the slot-type check on the missing-evidence row) as an ensemble
// of 5 fine-tuning runs from one pre-trained archive (seeds FEWSHOT_SEED + 0..4) that vote on each LF
// (models/ensemble.py), as evidence_ens5.libsonnet does for the row without the check. Pre-training
// is unchanged: the archives are the coverage variant's.
(import '../slot_types/slot_types.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
