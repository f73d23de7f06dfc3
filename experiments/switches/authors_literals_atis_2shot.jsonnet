// Faithful ProtoParser with the authors' literal atoms as entity slots, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'authors_literals.libsonnet')
