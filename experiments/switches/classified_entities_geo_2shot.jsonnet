// Faithful ProtoParser with entity slots classified over known entity values, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'classified_entities.libsonnet')
