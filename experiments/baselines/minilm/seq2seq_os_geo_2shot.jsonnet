// Seq2Seq with MiniLM words, os setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').seq2seq.experiment('geo', 2, 'os')
