// The faithful row with recombination, reshaped pairs, adjectives and subtree pairs (faithful_adjectives_subtrees.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_adjectives_subtrees.libsonnet')
