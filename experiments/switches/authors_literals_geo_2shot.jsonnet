// Faithful ProtoParser with the authors' literal atoms as entity slots, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'authors_literals.libsonnet')
