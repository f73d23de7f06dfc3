// Faithful ProtoParser with random word embeddings, geo 2-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors + import 'random_words.libsonnet')
