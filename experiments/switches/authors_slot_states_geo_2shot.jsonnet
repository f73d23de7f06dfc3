// Faithful ProtoParser with the authors' slot states, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'authors_slot_states.libsonnet')
