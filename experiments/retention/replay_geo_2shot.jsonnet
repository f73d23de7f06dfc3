// The faithful ProtoParser (experiments/geo_2shot.jsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'replay.libsonnet')
