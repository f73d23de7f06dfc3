// The faithful configuration with entity slots classified over the entity values of the training and
// support sets, as the authors' code fills them (docs/reproduction.md rows 16 and 36). Own
// pre-trained archive.
{ variant: 'classified-entities', entity_slots: 'classified' }
