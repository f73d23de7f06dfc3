// Faithful ProtoParser with one of our behaviours instead of the authors' (prototypes computed without dropout (Eq. 3) instead of with it, as the authors' fine-tuning does), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'eval_prototypes.libsonnet')
