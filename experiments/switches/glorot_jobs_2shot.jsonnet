// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'glorot.libsonnet')
