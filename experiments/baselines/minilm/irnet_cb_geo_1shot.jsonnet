// IRNet with MiniLM words, cb setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('geo', 1, 'cb')
