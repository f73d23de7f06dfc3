// Faithful ProtoParser with one of our behaviours instead of the authors' (our per-step loss means instead of the authors' per-example sums), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'step_loss.libsonnet')
