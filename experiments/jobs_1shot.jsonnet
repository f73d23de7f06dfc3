// ProtoParser as the authors' scripts run it (fewshot.authors: GloVe 50-d, supervised attention), jobs 1-shot, on split $FEWSHOT_SPLIT (default 1): pre-train (or reuse
// $FEWSHOT_PRETRAIN_DIR/jobs-ours), fine-tune on the support set, evaluate on the query set.
local fewshot = import 'common/fewshot.libsonnet';
fewshot.experiment('jobs', 1, fewshot.authors) + {
  // This experiment's fine-tuning is the recipe the archive gives `allennlp teach`.
  teaching_recipe: true,
}
