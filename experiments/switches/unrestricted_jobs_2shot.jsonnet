// Faithful ProtoParser with the authors' action scoring (every action, in training and decoding), jobs 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'unrestricted.libsonnet')
