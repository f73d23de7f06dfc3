// Faithful ProtoParser with prototypes computed with dropout, as the authors' fine-tuning does, geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'train_mode_prototypes.libsonnet')
