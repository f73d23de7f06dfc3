// The faithful ProtoParser (experiments/atis_1shot.jsonnet) with retention in fine-tuning: replay and distillation (distill.libsonnet), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'distill.libsonnet')
