// The best row (chosen/suite_epochs.libsonnet, its fine-tuning epochs chosen on the suite) with the
// faithful row's words, the packaged GloVe 6B 50-d vectors, instead of frozen contextual MiniLM
// (issue 52, item 6: a pre-training component removed from the best row). Lexicon, linking and
// schema encoding stay, so it pre-trains its own archive.
local pp = import '../common/proto_parser.libsonnet';
(import '../chosen/suite_epochs.libsonnet') + { variant: 'glove-linking-schema', words: pp.words.glove() }
