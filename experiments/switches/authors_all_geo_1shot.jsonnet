// Faithful ProtoParser with every authors' behaviour that is still a switch (authors_all.libsonnet), geo 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'authors_all.libsonnet')
