// The coverage variant (the best row) with the authors' supervised attention (`--sup_attention`,
// docs/reproduction.md row 15) at the faithful configs' weights: 1 in pre-training, and in
// fine-tuning 1 on geo and ATIS, 0 on jobs. Pre-training changes, so it has its own archive.
(import 'coverage.libsonnet') + {
  variant: 'contextual-schema-sup',
  supervised_attention: { pretraining: 1, finetune: { jobs: 0, geo: 1, atis: 1 } },
}
