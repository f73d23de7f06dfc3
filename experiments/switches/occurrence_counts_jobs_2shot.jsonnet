// Faithful ProtoParser with the authors' occurrence counts for P(a | x) instead of presence shares, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'occurrence_counts.libsonnet')
