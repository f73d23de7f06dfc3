// IRNet with MiniLM words, cb setting, jobs 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('jobs', 1, 'cb')
