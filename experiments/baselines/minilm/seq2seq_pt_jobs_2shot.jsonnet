// Seq2Seq with MiniLM words, pt setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').seq2seq.experiment('jobs', 2, 'pt')
