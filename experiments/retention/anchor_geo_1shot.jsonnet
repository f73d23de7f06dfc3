// The faithful ProtoParser (experiments/geo_1shot.jsonnet) with retention in fine-tuning: weight anchoring (EWC) (anchor.libsonnet), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'anchor.libsonnet')
