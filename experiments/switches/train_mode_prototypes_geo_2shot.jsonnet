// Faithful ProtoParser with prototypes computed with dropout, as the authors' fine-tuning does, geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'train_mode_prototypes.libsonnet')
