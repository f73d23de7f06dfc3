// The best row with 40 reshaped pairs (reshaped.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'reshaped.libsonnet')
