// Faithful ProtoParser with entity slots classified over known entity values, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'classified_entities.libsonnet')
