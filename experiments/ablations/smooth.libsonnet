// Ablation -smooth: no pre-training smoothing (k = 0). Everything else as in the faithful experiment.
{ variant: 'no-smooth', smoothing_k: 0 }
