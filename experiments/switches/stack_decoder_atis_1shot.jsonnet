// Faithful ProtoParser with one of our behaviours instead of the authors' (our stack decoder), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'stack_decoder.libsonnet')
