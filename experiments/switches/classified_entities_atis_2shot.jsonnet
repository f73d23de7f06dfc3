// Faithful ProtoParser with entity slots classified over known entity values, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'classified_entities.libsonnet')
