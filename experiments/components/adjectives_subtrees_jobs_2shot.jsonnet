// The best row with 40 reshaped pairs, adjectives and subtree pairs (adjectives_subtrees.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'adjectives_subtrees.libsonnet')
