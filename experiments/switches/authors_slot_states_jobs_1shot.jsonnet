// Faithful ProtoParser with the authors' slot states, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'authors_slot_states.libsonnet')
