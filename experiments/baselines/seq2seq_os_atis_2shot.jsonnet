// Seq2Seq, os setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('atis', 2, 'os')
