// Faithful ProtoParser with entity slots copied from the utterance (ours), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'copy_entities.libsonnet')
