// Faithful ProtoParser with one of our behaviours instead of the authors' (every label of an action as supervised-attention candidates instead of the authors' head words and lexicon), atis 1-shot.
local fewshot = import '../common/fewshot.libsonnet';
fewshot.experiment('atis', 1, fewshot.authors + import 'label_candidates.libsonnet')
