// Seq2Seq, pt setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('jobs', 1, 'pt')
