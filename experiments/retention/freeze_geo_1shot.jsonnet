// The faithful ProtoParser (experiments/geo_1shot.jsonnet) with retention in fine-tuning: only new action rows trained (freeze.libsonnet), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'freeze.libsonnet')
