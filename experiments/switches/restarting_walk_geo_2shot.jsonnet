// Faithful ProtoParser with a new meta-batch walk each epoch instead of the authors' walk across epochs, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'restarting_walk.libsonnet')
