// Today's best row (chosen/suite_epochs.libsonnet) as an ensemble of 5 fine-tunings voting on each LF,
// with the pre-trained parser answering where the ensemble uses no new predicate: the ensemble added
// to the best row (issue 52, item 6). Fine-tuning only.
(import '../chosen/suite_epochs.libsonnet') + { ensemble+: { size: 5, combine: 'vote' } }
