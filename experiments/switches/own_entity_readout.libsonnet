// The faithful configuration with entity slots that attend and read out through layers of their own,
// instead of the template decoder's attention key, attentional map and dropout, as the authors' entity
// steps do (docs/reproduction.md rows 16 and 36). Own pre-trained archive.
// The authors' slot states read out through the decoder, so the slot states are ours too.
{ variant: 'own-entity-readout', entity_readout: 'own', slot_states: 'ours' }
