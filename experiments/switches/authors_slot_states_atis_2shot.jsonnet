// Faithful ProtoParser with the authors' slot states, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'authors_slot_states.libsonnet')
