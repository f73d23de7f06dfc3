// Faithful ProtoParser with one of our behaviours instead of the authors' (predicate-wise dropout), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'predicate_dropout.libsonnet')
