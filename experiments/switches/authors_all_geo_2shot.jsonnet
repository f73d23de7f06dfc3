// Faithful ProtoParser with every authors' behaviour that is still a switch (authors_all.libsonnet), geo 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'authors_all.libsonnet')
