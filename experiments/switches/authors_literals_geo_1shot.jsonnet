// Faithful ProtoParser with the authors' literal atoms as entity slots, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'authors_literals.libsonnet')
