// Faithful ProtoParser with one of our behaviours instead of the authors' (predicate-wise dropout), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'predicate_dropout.libsonnet')
