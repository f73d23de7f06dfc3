// PT-MAML with MiniLM words, geo 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').ptmaml.experiment('geo', 2)
