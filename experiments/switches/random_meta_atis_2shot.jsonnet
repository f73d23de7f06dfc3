// Faithful ProtoParser with one of our behaviours instead of the authors' (random meta templates), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'random_meta.libsonnet')
