// Faithful ProtoParser with entity slots copied from the utterance (ours), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'copy_entities.libsonnet')
