// ProtoParser, atis 2-shot, on split $FEWSHOT_SPLIT (default 1): pre-train (or reuse
// $FEWSHOT_PRETRAIN_DIR/atis-ours), fine-tune on the support set, evaluate on the query set.
(import 'common/fewshot.libsonnet').experiment('atis', 2)
