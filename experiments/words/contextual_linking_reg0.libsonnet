// contextual_linking.libsonnet with ATIS's attention-regularization weight set to 0 in pre-training and
// fine-tuning: on shuffle 0 the faithful parser did better on ATIS without the regularizer than with
// the authors' lambda = 1 (lab/results/tuning_atis). jobs and geo keep the authors' weights, so their files
// import contextual_linking.libsonnet itself and share its pre-trained archives.
(import 'contextual_linking.libsonnet') + {
  variant: 'contextual-linking-reg0',
  regularization+: { atis: 0 },
  finetune+: { atis+: { '1'+: { regularization: 0 }, '2'+: { regularization: 0 } } },
}
