// The faithful configuration with our entity slots: each copies a position of the utterance, instead
// of naming one of the entity values of the training and support sets as the authors' code does
// (docs/reproduction.md rows 16 and 36). Copied slots have their own readout. Own pre-trained archive.
// The authors' slot states need classified slots, so the slots are ours too.
{ variant: 'copy-entities', entity_slots: 'copy', entity_readout: 'own', slot_states: 'ours' }
