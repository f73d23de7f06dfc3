// Seq2Seq with MiniLM words, pt setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').seq2seq.experiment('atis', 1, 'pt')
