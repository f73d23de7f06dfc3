// Entity-coverage re-ranking (fewshot_parser/models/entity_coverage.py) on top of the augmented
// variant (support-set recombination): the fine-tuned parser decodes 5 hypotheses and keeps the one
// with the best log-probability minus `weight` per utterance entity token its LF leaves out.
// Decoding only: pre-training and fine-tuning are the augmented variant's. Weight and beam chosen on
// shuffle 0 (docs/results.md, "Entity-coverage re-ranking").
(import '../augmentation/augmented.libsonnet') + {
  entity_coverage: { weight: 5, beam: 5 },
}
