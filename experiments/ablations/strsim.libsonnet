// Ablation -strsim: attention regularization without the string-similarity feature. Everything else as in the faithful experiment.
{ variant: 'no-strsim', similarity_feature: false }
