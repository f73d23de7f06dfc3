// Faithful ProtoParser with one of our behaviours instead of the authors' (whole-name string similarity), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'name_strsim.libsonnet')
