// Faithful ProtoParser with the authors' literal atoms as entity slots, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'authors_literals.libsonnet')
