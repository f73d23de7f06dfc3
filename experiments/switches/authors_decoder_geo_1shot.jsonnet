// Faithful ProtoParser with the authors' REDUCE input and initial decoder state, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'authors_decoder.libsonnet')
