// Faithful ProtoParser with entity slots classified over known entity values, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'classified_entities.libsonnet')
