// The faithful row with recombination, reshaped pairs, adjectives and subtree pairs (faithful_adjectives_subtrees.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_adjectives_subtrees.libsonnet')
