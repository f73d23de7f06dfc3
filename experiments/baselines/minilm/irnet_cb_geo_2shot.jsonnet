// IRNet with MiniLM words, cb setting, geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('geo', 2, 'cb')
