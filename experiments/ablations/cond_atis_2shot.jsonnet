// ProtoParser -cond, atis 2-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'cond.libsonnet')
