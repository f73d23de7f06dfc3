// Faithful ProtoParser with the authors' action scoring (every action, in training and decoding), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'unrestricted.libsonnet')
