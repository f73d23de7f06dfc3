// Faithful ProtoParser with random word embeddings, geo 1-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('geo', 1, fewshot.authors + import 'random_words.libsonnet')
