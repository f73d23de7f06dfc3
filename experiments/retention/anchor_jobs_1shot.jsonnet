// The faithful ProtoParser (experiments/jobs_1shot.jsonnet) with retention in fine-tuning: weight anchoring (EWC) (anchor.libsonnet), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'anchor.libsonnet')
