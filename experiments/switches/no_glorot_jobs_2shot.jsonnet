// Faithful ProtoParser with one of our behaviours instead of the authors' (no Glorot initialisation), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'no_glorot.libsonnet')
