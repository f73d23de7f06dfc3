// Faithful ProtoParser with entity slots copied from the utterance (ours), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'copy_entities.libsonnet')
