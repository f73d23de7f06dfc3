// Faithful ProtoParser with our slot LSTMs instead of the authors' slot states, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'our_slot_states.libsonnet')
