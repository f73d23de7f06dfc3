// ensemble/slot_types_ens5.libsonnet (five fine-tunings that vote) over 3 pre-trainings: part p is that
// experiment with pre-training and fine-tuning seeds FEWSHOT_SEED + 10 p, and all 15 members vote
// (training/pretrainings_ensemble.py). Part 0 is the slot_types_ens5 run itself; parts 1 and 2
// pre-train `<dataset>-contextual-schema-seed<N>` on first use. Not tuned: it averages out the
// pre-training seed on top of the fine-tuning seed (docs/results.md, "Ensembles of pre-trainings").
(import 'slot_types_ens5.libsonnet') + { ensemble+: { pretrainings: 3 } }
