// Faithful ProtoParser with entity slots classified over known entity values, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'classified_entities.libsonnet')
