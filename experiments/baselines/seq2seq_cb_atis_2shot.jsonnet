// Seq2Seq, cb setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('atis', 2, 'cb')
