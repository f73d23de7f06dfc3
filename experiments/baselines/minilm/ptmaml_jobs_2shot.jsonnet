// PT-MAML with MiniLM words, jobs 2-shot (split from $FEWSHOT_SPLIT).
(import 'minilm.libsonnet').ptmaml.experiment('jobs', 2)
