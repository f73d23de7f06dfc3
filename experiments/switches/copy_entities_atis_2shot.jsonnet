// Faithful ProtoParser with entity slots copied from the utterance (ours), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'copy_entities.libsonnet')
