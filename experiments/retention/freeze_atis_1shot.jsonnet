// The faithful ProtoParser (experiments/atis_1shot.jsonnet) with retention in fine-tuning: only new action rows trained (freeze.libsonnet), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'freeze.libsonnet')
