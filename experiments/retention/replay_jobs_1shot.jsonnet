// The faithful ProtoParser (experiments/jobs_1shot.jsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'replay.libsonnet')
