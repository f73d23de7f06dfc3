// Seq2Seq, pt setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import '../common/seq2seq.libsonnet').experiment('geo', 1, 'pt')
