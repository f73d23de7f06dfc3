// Faithful ProtoParser with the authors' action scoring (every action, in training and decoding), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'unrestricted.libsonnet')
