// The faithful ProtoParser (experiments/atis_2shot.jsonnet) with retention in fine-tuning: replay of 50 training examples (replay.libsonnet), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'replay.libsonnet')
