// The faithful ProtoParser (experiments/geo_2shot.jsonnet) with retention in fine-tuning: weight anchoring (EWC) (anchor.libsonnet), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'anchor.libsonnet')
