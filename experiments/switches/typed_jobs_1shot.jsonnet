// Faithful ProtoParser with one of our behaviours instead of the authors' (typed entity slots), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'typed.libsonnet')
