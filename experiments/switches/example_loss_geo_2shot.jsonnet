// Faithful ProtoParser with the authors' per-example loss sums instead of our per-step means, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'example_loss.libsonnet')
