// Faithful ProtoParser with one of our behaviours instead of the authors' (no Glorot initialisation), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'no_glorot.libsonnet')
