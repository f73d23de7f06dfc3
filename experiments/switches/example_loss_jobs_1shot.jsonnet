// Faithful ProtoParser with the authors' per-example loss sums instead of our per-step means, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'example_loss.libsonnet')
