// The faithful configuration with our stack-LSTM decoder instead of the authors' (no input feeding, input rows tied to the output rows,
// a REDUCE reads its children's states, h_0 from the mean encoder output, maps with a bias) (docs/reproduction.md row 7). Own pre-trained archive.
// The authors' slot states continue from the authors' decoder, so the slot states are ours too; and the entity
// slots read out through layers of their own, since our decoder's attentional map (to the 128-d action rows)
// cannot score them.
{ variant: 'stack-decoder', decoder: 'stack', reduce_input: 'states', decoder_init: 'mean', decoder_bias: true, slot_states: 'ours',
  entity_readout: 'own' }
