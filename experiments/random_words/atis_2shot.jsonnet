// Faithful ProtoParser with random word embeddings, atis 2-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 2, fewshot.authors + import 'random_words.libsonnet')
