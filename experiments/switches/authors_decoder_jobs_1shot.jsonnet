// Faithful ProtoParser with the authors' REDUCE input and initial decoder state, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'authors_decoder.libsonnet')
