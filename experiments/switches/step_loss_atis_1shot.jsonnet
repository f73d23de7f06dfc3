// Faithful ProtoParser with one of our behaviours instead of the authors' (our per-step loss means instead of the authors' per-example sums), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'step_loss.libsonnet')
