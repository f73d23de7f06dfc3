// Faithful ProtoParser with the authors' meta-batch walk running on across epochs, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'continuing_walk.libsonnet')
