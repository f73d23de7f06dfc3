// The faithful ProtoParser (experiments/atis_1shot.jsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'replay.libsonnet')
