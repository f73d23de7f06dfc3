// Faithful ProtoParser with the authors' supervised-attention candidate words, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'authors_candidates.libsonnet')
