// The best row (chosen/suite_epochs.libsonnet) with up to 40 reshaped pairs per new predicate in its
// fine-tuning data (data/recombination/reshaped.py; the count of the former best row, reshaped40-ens5):
// a component added back to the best row (issue 52, item 6). Fine-tuning only: it shares the best
// row's pre-trained archives.
(import '../chosen/suite_epochs.libsonnet') + { augmentation+: { reshaped_pairs: 40 } }
