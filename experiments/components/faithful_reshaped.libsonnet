// The faithful row with the best row's recombination (augmentation/ours_recomb.libsonnet) and up to 40
// reshaped pairs per new predicate (data/recombination/reshaped.py), the count of best-reshaped40:
// reshaped pairs added to the faithful row (issue 52, item 6). Reshaped pairs are a kind of
// recombined pair, so the base they are measured against is `ours-recomb`. Fine-tuning only: it
// shares the faithful row's pre-trained archives.
(import '../augmentation/ours_recomb.libsonnet') + { augmentation+: { reshaped_pairs: 40 } }
