// Ablation -sup: no supervised batches in pre-training (meta batches only). Everything else as in the faithful experiment.
{ variant: 'no-sup', supervised_batches: false }
