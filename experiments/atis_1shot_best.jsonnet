// The best row (grid system `chosen-fallback-roles`), atis 1-shot, on split $FEWSHOT_SPLIT: ProtoParser plus
// every option beyond the paper that it uses, all of them here. Unlisted settings are the paper's
// (`defaults` in common/fewshot.libsonnet, where each is documented). It was chosen on the development
// suite (predicates drawn as new from train.txt alone; docs/results.md, "The best row's components on
// the suite"), not on the official splits. Pre-training is shared with every row of variant
// 'contextual-schema' ($FEWSHOT_PRETRAIN_DIR/atis-contextual-schema); the settings below act after it.
local fewshot = import 'common/fewshot.libsonnet';
local pp = import 'common/proto_parser.libsonnet';

fewshot.experiment('atis', 1, {
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
  // Fine-tuning data: the support set (each example 4 times, less-augmented predicates repeated to
  // even them out), 20 forward and 10 reverse recombined pairs per new predicate and 50 replayed
  // training examples, for 1 epoch (kept on the development suite: chosen/suite_epochs.libsonnet).
  augmentation: {
    pairs: 20, reverse_pairs: 10, support_repeat: 4, replay: 50, lexicon: true, balance: true, epochs: 1,
    // Forward pairs replace only a known predicate whose variables play the new one's roles (typed by
    // another condition or not; data/recombination/forward.py), chosen on the development suite.
    same_roles: true,
  },
  // Decoding components (fewshot_parser/modules/decoding/): entity-coverage re-ranking over a beam of
  // 10 and the slot-type check.
  entity_coverage: { weight: 5, beam: 10 },
  slot_types: { weight: 2 },
  // Retention: an utterance whose fine-tuned answer uses no new predicate is answered by the
  // pre-trained parser, which the archive keeps (models/known_fallback.py).
  retention: [{ type: 'pretrained_fallback' }],
}) + {
  // This experiment's fine-tuning is the recipe the archive gives `allennlp teach`.
  teaching_recipe: true,
}
