// Seq2Seq with MiniLM words, os setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').seq2seq.experiment('geo', 1, 'os')
