// The best row until the development suite chose again (grid system `reshaped40-ens5`; README's best row
// is now `chosen-fallback`, ../atis_2shot_best.jsonnet), atis 2-shot, on split $FEWSHOT_SPLIT: ProtoParser plus
// every option beyond the paper that it uses, all of them here. Unlisted settings are the paper's
// (`defaults` in common/fewshot.libsonnet, where each is documented). Pre-training is shared with
// every row of variant 'contextual-schema' ($FEWSHOT_PRETRAIN_DIR/atis-contextual-schema); the
// fine-tuning and decoding settings below act after it. docs/results.md says how each was chosen.
local fewshot = import '../common/fewshot.libsonnet';
local pp = import '../common/proto_parser.libsonnet';

fewshot.experiment('atis', 2, {
  variant: 'contextual-schema',
  // Words: the packaged MiniLM (all-MiniLM-L6-v2) as a frozen contextual encoder, 384-d.
  words: pp.words.contextual(),
  // String similarity also reads the predicate lexicon (fewshot_parser/resources/lexicons/), and
  // action scores get a bonus from attended words that name the action's predicates.
  lexicon: true,
  lexical_linking: true,
  link_pooling: 'both',
  // IRNet's schema encoding: a predicate's action also scores by pointing at its name's encoding.
  schema_encoding: true,
  // Decoding: +1 on the scores of the actions fine-tuning added.
  new_action_bias: 1.0,
  // Fine-tuning data: the support set (each example 4 times, less-augmented predicates repeated to
  // even them out), 20 forward and 10 reverse recombined pairs per new predicate, 40 pairs with
  // argument shapes the support set does not show, and 50 replayed training examples, for 1 epoch(s).
  augmentation: {
    pairs: 20, reverse_pairs: 10, support_repeat: 4, replay: 50, lexicon: true, balance: true,
    epochs: 1, reshaped_pairs: 40,
  },
  // Decoding components (fewshot_parser/modules/decoding/): entity-coverage re-ranking over a beam of
  // 10, the missing-evidence penalty and the slot-type check.
  entity_coverage: { weight: 5, beam: 10 },
  missing_evidence: { weight: 4 },
  slot_types: { weight: 2 },
  // Five members fine-tuned from the same archive with seeds FEWSHOT_SEED + 0..4, voting on each LF.
  ensemble: { size: 5, combine: 'vote' },
})
