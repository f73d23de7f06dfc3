// Faithful ProtoParser with entity slots reading out through their own layers (ours), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'own_entity_readout.libsonnet')
