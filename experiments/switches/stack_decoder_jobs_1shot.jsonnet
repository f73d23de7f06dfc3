// Faithful ProtoParser with one of our behaviours instead of the authors' (our stack decoder), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'stack_decoder.libsonnet')
