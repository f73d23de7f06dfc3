// Faithful ProtoParser with the authors' action scoring (every action, in training and decoding), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'unrestricted.libsonnet')
