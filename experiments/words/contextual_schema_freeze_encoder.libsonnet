// contextual_schema.libsonnet with the utterance BiLSTM left as pre-trained during fine-tuning (the
// MiniLM words are frozen already): one or two support examples per new predicate then move the
// decoder, the slot filler and the action rows, not the encoding of the words. Pre-training is
// unchanged, so the archives are contextual-schema's.
(import 'contextual_schema.libsonnet') + { finetune_frozen: ['^_encoder\\.'] }
