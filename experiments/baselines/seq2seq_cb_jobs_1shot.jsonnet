// Seq2Seq, cb setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('jobs', 1, 'cb')
