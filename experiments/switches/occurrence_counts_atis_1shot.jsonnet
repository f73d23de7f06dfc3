// Faithful ProtoParser with the authors' occurrence counts for P(a | x) instead of presence shares, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'occurrence_counts.libsonnet')
