// IRNet with MiniLM words, os setting, atis 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('atis', 1, 'os')
