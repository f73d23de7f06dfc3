// The faithful row with the best row's words: frozen contextual MiniLM (all-MiniLM-L6-v2, packaged)
// instead of GloVe 50-d (issue 52, item 6: a pre-training component added to the faithful row).
// Everything else is the authors' configuration (common/fewshot.libsonnet `authors`), so it
// pre-trains its own archive.
local pp = import '../common/proto_parser.libsonnet';
(import '../common/fewshot.libsonnet').authors + { variant: 'ours-minilm', words: pp.words.contextual() }
