// The slot-type check (fewshot_parser/modules/decoding/slot_type_check.py) on top of the missing-evidence row:
// at each decoding step an action with an entity slot whose type no word of the utterance has (jobs'
// `req_exp ( ANS , year0 )` for an utterance without a `year0`) loses `weight`. Decoding only:
// pre-training and fine-tuning are the coverage variant's, so its archive is shared. Weight 2 chosen
// on shuffle 0 (lab/results/tuning_slot_types/sweep.md; docs/results.md, "Slot-type check").
(import '../evidence/evidence.libsonnet') + {
  slot_types: { weight: 2 },
}
