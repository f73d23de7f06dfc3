// Seq2Seq, cb setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('jobs', 2, 'cb')
