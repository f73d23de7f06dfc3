// The best row with 40 reshaped pairs (reshaped.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'reshaped.libsonnet')
