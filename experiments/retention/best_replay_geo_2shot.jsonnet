// The former best row (reshaped/reshaped40_ens5.libsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet) in every member, geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import '../reshaped/reshaped40_ens5.libsonnet') + import 'replay.libsonnet')
