// Seq2Seq with MiniLM words, pt setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').seq2seq.experiment('atis', 2, 'pt')
