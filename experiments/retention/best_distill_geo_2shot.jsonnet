// The former best row (reshaped/reshaped40_ens5_geo_2shot.jsonnet's settings, reshaped40_ens5.libsonnet) with retention in fine-tuning: replay of 50 training examples and distillation on them (distill.libsonnet) in every member, geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import '../reshaped/reshaped40_ens5.libsonnet') + import 'distill.libsonnet')
