// Faithful ProtoParser with the authors' REDUCE input and initial decoder state, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'authors_decoder.libsonnet')
