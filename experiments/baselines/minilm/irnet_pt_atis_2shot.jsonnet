// IRNet with MiniLM words, pt setting, atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').irnet.experiment('atis', 2, 'pt')
