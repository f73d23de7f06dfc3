// Seq2Seq, cb setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('geo', 2, 'cb')
