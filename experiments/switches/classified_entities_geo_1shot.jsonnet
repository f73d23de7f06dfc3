// Faithful ProtoParser with entity slots classified over known entity values, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'classified_entities.libsonnet')
