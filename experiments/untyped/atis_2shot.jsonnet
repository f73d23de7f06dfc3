// Faithful ProtoParser (fewshot.authors) with one untyped entity slot instead of typed ones, as the
// authors' code has it (docs/reproduction.md rows 4 and 36), atis 2-shot, split $FEWSHOT_SPLIT.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + { variant: 'untyped', typed_entities: false })
