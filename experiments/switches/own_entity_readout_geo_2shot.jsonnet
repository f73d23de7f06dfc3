// Faithful ProtoParser with entity slots reading out through their own layers (ours), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'own_entity_readout.libsonnet')
