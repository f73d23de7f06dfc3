// Faithful ProtoParser with our REDUCE input and initial decoder state, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'our_decoder_details.libsonnet')
