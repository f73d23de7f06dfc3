// The missing-evidence penalty (fewshot_parser/modules/decoding/missing_evidence.py) on top of the coverage
// variant: at each decoding step a known action loses `weight` x the largest share of its training
// examples that had a word this utterance lacks (for words almost always seen with it and rare
// otherwise: ATIS's `arrival_time` and "arrive"). Decoding only: pre-training and fine-tuning are the
// coverage variant's, so its archive is shared. Weight 4 (evidence words: share 0.8, lift 3, at least
// 5 examples, GEN actions only) chosen on shuffle 0 (lab/results/tuning_evidence/sweep.md; share 0.6 in
// sweep_share06.md; docs/results.md, "Missing-evidence penalty").
(import '../coverage/coverage.libsonnet') + {
  missing_evidence: { weight: 4 },
}
