// Faithful ProtoParser with the authors' supervised-attention candidate words, atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'authors_candidates.libsonnet')
