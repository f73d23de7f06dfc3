// Faithful ProtoParser with the authors' per-example loss sums instead of our per-step means, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'example_loss.libsonnet')
