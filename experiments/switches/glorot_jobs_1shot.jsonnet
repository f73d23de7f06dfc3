// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'glorot.libsonnet')
