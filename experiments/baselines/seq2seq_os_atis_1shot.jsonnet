// Seq2Seq, os setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('atis', 1, 'os')
