// Faithful ProtoParser with our REDUCE input and initial decoder state, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'our_decoder_details.libsonnet')
