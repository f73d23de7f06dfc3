// Entity-coverage re-ranking (fewshot_parser/modules/decoding/entity_coverage.py) on top of the augmented
// variant (support-set recombination): the fine-tuned parser keeps its greedy LF when that LF uses
// every entity token of the utterance; otherwise it also decodes 10 hypotheses and keeps, among them
// and the greedy LF, the best log-probability minus `weight` per entity token the LF leaves out.
// Decoding only: pre-training and fine-tuning are the augmented variant's. Weight and beam chosen on
// shuffle 0 (lab/results/tuning_coverage/sweep.md; docs/results.md, "Entity-coverage re-ranking").
(import '../augmentation/augmented.libsonnet') + {
  entity_coverage: { weight: 5, beam: 10 },
}
