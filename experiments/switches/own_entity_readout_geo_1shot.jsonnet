// Faithful ProtoParser with entity slots reading out through their own layers (ours), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'own_entity_readout.libsonnet')
