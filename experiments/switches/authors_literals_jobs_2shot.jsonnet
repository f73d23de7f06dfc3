// Faithful ProtoParser with the authors' literal atoms as entity slots, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'authors_literals.libsonnet')
