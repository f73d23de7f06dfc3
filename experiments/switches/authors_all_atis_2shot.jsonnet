// Faithful ProtoParser with every authors' behaviour that is still a switch (authors_all.libsonnet), atis 2-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'authors_all.libsonnet')
