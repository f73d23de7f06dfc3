// The faithful ProtoParser (experiments/jobs_1shot.jsonnet) with retention in fine-tuning: only new action rows trained (freeze.libsonnet), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'freeze.libsonnet')
