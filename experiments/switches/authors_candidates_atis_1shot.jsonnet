// Faithful ProtoParser with the authors' supervised-attention candidate words, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'authors_candidates.libsonnet')
