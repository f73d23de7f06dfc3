// Faithful ProtoParser with one of our behaviours instead of the authors' (typed entity slots), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'typed.libsonnet')
