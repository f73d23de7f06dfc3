// contextual_schema.libsonnet with the utterance BiLSTM and the template decoder's LSTM, attention and
// output layer left as pre-trained during fine-tuning, so that the support set cannot re-learn which
// known templates to prefer (on jobs shuffle 0 fine-tuning turned salary questions into a support
// example's negation template). What moves: the action rows (new ones initialised from prototypes),
// the slot filler, the schema tables and the linking weights. The archives are contextual-schema's.
(import 'contextual_schema.libsonnet') + { finetune_frozen: ['^_encoder\\.', '^_decoder\\.'] }
