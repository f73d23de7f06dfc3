// Faithful ProtoParser with one of our behaviours instead of the authors' (no Glorot initialisation), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'no_glorot.libsonnet')
