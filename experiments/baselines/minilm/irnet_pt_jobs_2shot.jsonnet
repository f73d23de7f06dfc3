// IRNet with MiniLM words, pt setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('jobs', 2, 'pt')
