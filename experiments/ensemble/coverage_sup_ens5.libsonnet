// coverage/coverage_sup.libsonnet (the coverage row with the authors' supervised attention) as an ensemble
// of 5 fine-tuning runs from its pre-trained archive (seeds FEWSHOT_SEED + 0..4) that vote on each LF, as
// coverage_ens5.libsonnet does for the coverage row. Both parts were chosen on shuffle 0
// (lab/results/tuning_coverage/table1.md, lab/results/tuning_ensemble/combine_s0.md). The archives are coverage-sup's.
(import '../coverage/coverage_sup.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
