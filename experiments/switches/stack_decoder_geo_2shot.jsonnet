// Faithful ProtoParser with one of our behaviours instead of the authors' (our stack decoder), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'stack_decoder.libsonnet')
