// The best row with 40 reshaped pairs (reshaped.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'reshaped.libsonnet')
