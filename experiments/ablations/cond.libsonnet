// Ablation -cond: attention regularization without the co-occurrence feature. Everything else as in the faithful experiment.
{ variant: 'no-cond', conditional_feature: false }
