// The best row without support-set recombination (issue 52, item 6: a component removed from the
// best row): fine-tuned on the support set alone, with the best row's other settings. Fine-tuning
// only, so it shares the best row's pre-trained archives.
(import 'chosen.libsonnet') + (import '../retention/fallback.libsonnet') + { augmentation: null }
