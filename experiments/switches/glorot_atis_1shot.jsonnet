// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'glorot.libsonnet')
