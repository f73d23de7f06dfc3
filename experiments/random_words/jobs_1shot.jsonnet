// Faithful ProtoParser with random word embeddings, jobs 1-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors + import 'random_words.libsonnet')
