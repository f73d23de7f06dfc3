// Faithful ProtoParser with one of our behaviours instead of the authors' (whole-name string similarity), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'name_strsim.libsonnet')
