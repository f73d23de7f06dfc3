// Faithful ProtoParser with our slot LSTMs instead of the authors' slot states, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'our_slot_states.libsonnet')
