// The former best row (reshaped/reshaped40_ens5_jobs_2shot.jsonnet's settings, reshaped40_ens5.libsonnet) with retention in fine-tuning: replay of 50 training examples and distillation on them (distill.libsonnet) in every member, jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, (import '../reshaped/reshaped40_ens5.libsonnet') + import 'distill.libsonnet')
