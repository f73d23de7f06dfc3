// The faithful ProtoParser (experiments/jobs_2shot.jsonnet) with retention in fine-tuning: only new action rows trained (freeze.libsonnet), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'freeze.libsonnet')
