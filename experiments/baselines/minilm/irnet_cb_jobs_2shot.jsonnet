// IRNet with MiniLM words, cb setting, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('jobs', 2, 'cb')
