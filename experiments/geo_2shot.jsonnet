// ProtoParser as the authors' scripts run it (fewshot.authors: GloVe 50-d, supervised attention), geo 2-shot, on split $FEWSHOT_SPLIT (default 1): pre-train (or reuse
// $FEWSHOT_PRETRAIN_DIR/geo-ours), fine-tune on the support set, evaluate on the query set.
local fewshot = import 'common/fewshot.libsonnet';
fewshot.experiment('geo', 2, fewshot.authors) + {
  // This experiment's fine-tuning is the recipe the archive gives `allennlp teach`.
  teaching_recipe: true,
}
