// Faithful ProtoParser with one of our behaviours instead of the authors' (actions scored among the applicable ones), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'applicable_only.libsonnet')
