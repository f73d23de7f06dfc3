// Faithful ProtoParser with the authors' occurrence counts for P(a | x) instead of presence shares, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'occurrence_counts.libsonnet')
