// Ablation -reg: no attention regularization (pre-training and fine-tuning). Everything else as in the faithful experiment.
{ variant: 'no-reg', regularization: { jobs: 0, geo: 0, atis: 0 }, finetune: std.mapWithKey(function(d, shots) std.mapWithKey(function(k, v) v { regularization: 0 }, shots), super.finetune) }
