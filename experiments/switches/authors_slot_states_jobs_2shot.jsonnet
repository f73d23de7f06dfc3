// Faithful ProtoParser with the authors' slot states, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'authors_slot_states.libsonnet')
