// Seq2Seq, os setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('geo', 1, 'os')
