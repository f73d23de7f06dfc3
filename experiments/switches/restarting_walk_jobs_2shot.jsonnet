// Faithful ProtoParser with a new meta-batch walk each epoch instead of the authors' walk across epochs, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'restarting_walk.libsonnet')
