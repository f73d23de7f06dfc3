// Faithful ProtoParser with the authors' slot states, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'authors_slot_states.libsonnet')
