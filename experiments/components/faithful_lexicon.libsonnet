// The faithful row with the best row's predicate lexicon and lexical linking (link pooling 'both',
// as in the best row) (issue 52, item 6: a pre-training component added to the faithful row).
// Everything else is the authors' configuration, GloVe words included; it pre-trains its own archive.
(import '../common/fewshot.libsonnet').authors
+ { variant: 'ours-lexicon', lexicon: true, lexical_linking: true, link_pooling: 'both' }
