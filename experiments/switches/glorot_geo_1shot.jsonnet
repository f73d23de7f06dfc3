// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'glorot.libsonnet')
