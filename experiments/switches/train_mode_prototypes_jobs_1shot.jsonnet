// Faithful ProtoParser with prototypes computed with dropout, as the authors' fine-tuning does, jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'train_mode_prototypes.libsonnet')
