// Faithful ProtoParser with our REDUCE input and initial decoder state, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'our_decoder_details.libsonnet')
