// PT-MAML with MiniLM words, atis 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').ptmaml.experiment('atis', 2)
