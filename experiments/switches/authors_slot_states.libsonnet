// The faithful configuration with the authors' slot states: entity slots continue from the decoder state
// of their step, variable slots form one chain per example, both reading out through the decoder
// (docs/reproduction.md note 3; models/authors_slots.py). Own pre-trained archive.
{ variant: 'authors-slot-states', slot_states: 'authors' }
