// Faithful ProtoParser with the authors' per-example loss sums instead of our per-step means, atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'example_loss.libsonnet')
