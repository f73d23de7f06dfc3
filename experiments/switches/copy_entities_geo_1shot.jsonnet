// Faithful ProtoParser with entity slots copied from the utterance (ours), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'copy_entities.libsonnet')
