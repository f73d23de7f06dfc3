// PT-MAML with MiniLM words, atis 1-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').ptmaml.experiment('atis', 1)
