// Faithful ProtoParser with one of our behaviours instead of the authors' (the paper's presence shares for P(a | x) instead of the authors' occurrence counts), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'presence_counts.libsonnet')
