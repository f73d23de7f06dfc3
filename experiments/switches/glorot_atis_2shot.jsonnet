// Faithful ProtoParser with the authors' Glorot initialisation at pre-training, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'glorot.libsonnet')
