// IRNet with MiniLM words, pt setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('jobs', 1, 'pt')
