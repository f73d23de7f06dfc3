// The faithful ProtoParser (experiments/atis_2shot.jsonnet) with retention in fine-tuning: only new action rows trained (freeze.libsonnet), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'freeze.libsonnet')
