// Faithful ProtoParser with the authors' meta-batch walk running on across epochs, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'continuing_walk.libsonnet')
