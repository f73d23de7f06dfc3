// Faithful ProtoParser with the authors' supervised-attention candidate words, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'authors_candidates.libsonnet')
