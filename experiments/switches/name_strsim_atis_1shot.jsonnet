// Faithful ProtoParser with one of our behaviours instead of the authors' (whole-name string similarity), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'name_strsim.libsonnet')
