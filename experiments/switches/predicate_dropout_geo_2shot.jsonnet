// Faithful ProtoParser with one of our behaviours instead of the authors' (predicate-wise dropout), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'predicate_dropout.libsonnet')
