// IRNet with MiniLM words, os setting, geo 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('geo', 1, 'os')
