// Faithful ProtoParser with the authors' slot states, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'authors_slot_states.libsonnet')
