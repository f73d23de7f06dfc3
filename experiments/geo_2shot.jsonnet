// ProtoParser as the authors' scripts run it (faithful.jsonnet; the grid's row `ours`), geo 2-shot, on split
// $FEWSHOT_SPLIT (default 1): pre-train (or reuse $FEWSHOT_PRETRAIN_DIR/geo-ours), fine-tune on the
// support set, evaluate on the query set.
(import 'faithful.jsonnet')(dataset='geo', shot=2) + {
  // This experiment's fine-tuning is the recipe the archive gives `allennlp teach`.
  teaching_recipe: true,
}
