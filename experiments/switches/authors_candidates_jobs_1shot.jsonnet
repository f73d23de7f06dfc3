// Faithful ProtoParser with the authors' supervised-attention candidate words, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'authors_candidates.libsonnet')
