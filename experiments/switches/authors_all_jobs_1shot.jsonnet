// Faithful ProtoParser with every authors' behaviour that is still a switch (authors_all.libsonnet), jobs 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'authors_all.libsonnet')
