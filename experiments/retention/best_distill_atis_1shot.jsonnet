// The former best row (reshaped/reshaped40_ens5_atis_1shot.jsonnet's settings, reshaped40_ens5.libsonnet) with retention in fine-tuning: replay of 50 training examples and distillation on them (distill.libsonnet) in every member, atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, (import '../reshaped/reshaped40_ens5.libsonnet') + import 'distill.libsonnet')
