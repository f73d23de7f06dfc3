// Faithful ProtoParser with entity slots reading out through their own layers (ours), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'own_entity_readout.libsonnet')
