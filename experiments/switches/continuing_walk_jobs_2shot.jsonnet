// Faithful ProtoParser with the authors' meta-batch walk running on across epochs, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'continuing_walk.libsonnet')
