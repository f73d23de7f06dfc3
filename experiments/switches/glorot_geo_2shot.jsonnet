// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'glorot.libsonnet')
