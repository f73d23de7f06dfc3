// The faithful configuration with our slot states: entity and variable slots run slot LSTMs of their own,
// started from the step's attentional vector, instead of continuing from the decoder's states as the
// authors' code does (docs/reproduction.md note 3). Own pre-trained archive.
{ variant: 'our-slot-states', slot_states: 'ours' }
