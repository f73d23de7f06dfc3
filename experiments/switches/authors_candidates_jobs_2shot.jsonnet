// Faithful ProtoParser with the authors' supervised-attention candidate words, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'authors_candidates.libsonnet')
