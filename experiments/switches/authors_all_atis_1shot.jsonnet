// Faithful ProtoParser with every authors' behaviour that is still a switch (authors_all.libsonnet), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'authors_all.libsonnet')
