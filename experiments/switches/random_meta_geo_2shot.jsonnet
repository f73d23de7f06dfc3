// Faithful ProtoParser with one of our behaviours instead of the authors' (random meta templates), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'random_meta.libsonnet')
