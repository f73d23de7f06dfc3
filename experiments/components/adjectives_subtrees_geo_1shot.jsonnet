// The best row with 40 reshaped pairs, adjectives and subtree pairs (adjectives_subtrees.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'adjectives_subtrees.libsonnet')
