// The best row with 40 reshaped pairs, adjectives and subtree pairs (adjectives_subtrees.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'adjectives_subtrees.libsonnet')
