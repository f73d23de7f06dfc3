// Faithful ProtoParser with the authors' literal atoms as entity slots, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'authors_literals.libsonnet')
