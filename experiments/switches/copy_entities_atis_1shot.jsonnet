// Faithful ProtoParser with entity slots copied from the utterance (ours), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'copy_entities.libsonnet')
