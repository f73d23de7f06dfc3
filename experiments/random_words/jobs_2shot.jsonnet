// Faithful ProtoParser with random word embeddings, jobs 2-shot (split from $FEWSHOT_SPLIT).
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('jobs', 2, fewshot.authors + import 'random_words.libsonnet')
