// The faithful ProtoParser (experiments/atis_2shot.jsonnet) with retention in fine-tuning: weight anchoring (EWC) (anchor.libsonnet), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'anchor.libsonnet')
