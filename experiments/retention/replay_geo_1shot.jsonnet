// The faithful ProtoParser (experiments/geo_1shot.jsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'replay.libsonnet')
