// Faithful ProtoParser with prototypes computed with dropout, as the authors' fine-tuning does, jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'train_mode_prototypes.libsonnet')
