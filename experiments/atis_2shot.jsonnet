// ProtoParser as the authors' scripts run it (faithful.jsonnet; the grid's row `ours`), atis 2-shot, on split
// $FEWSHOT_SPLIT (default 1): pre-train (or reuse $FEWSHOT_PRETRAIN_DIR/atis-ours), fine-tune on the
// support set, evaluate on the query set.
(import 'faithful.jsonnet')(dataset='atis', shot=2) + {
  // This experiment's fine-tuning is the recipe the archive gives `allennlp teach`.
  teaching_recipe: true,
}
