// The best row with 40 reshaped pairs (reshaped.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'reshaped.libsonnet')
