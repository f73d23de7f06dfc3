// The previous best row's base with dataset_reader.lexicon, model.lexicon, pretraining.model.lexicon null, for row best-no-lexicon (a merge patch cannot set null).
function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))
  (import 'chosen_fallback_roles.jsonnet')(dataset, shot) + { dataset_reader+: { lexicon: null } } + { model+: { lexicon: null } } + { pretraining+: { model+: { lexicon: null } } }
