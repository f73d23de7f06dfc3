// The best row with 40 reshaped pairs, adjectives and subtree pairs (adjectives_subtrees.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'adjectives_subtrees.libsonnet')
