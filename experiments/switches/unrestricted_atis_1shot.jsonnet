// Faithful ProtoParser with the authors' action scoring (every action, in training and decoding), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'unrestricted.libsonnet')
