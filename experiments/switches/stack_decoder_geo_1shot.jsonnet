// Faithful ProtoParser with one of our behaviours instead of the authors' (our stack decoder), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'stack_decoder.libsonnet')
