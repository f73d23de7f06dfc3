// Faithful ProtoParser with one of our behaviours instead of the authors' (actions scored among the applicable ones), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'applicable_only.libsonnet')
