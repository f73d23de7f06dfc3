// The faithful configuration with our three details of the authors' decoder: a REDUCE reads the mean
// of its children's decoder states, h_0 comes from the mean encoder output, and the maps to the
// attentional vector and of a REDUCE have a bias, instead of a linear map of the children's inputs,
// the encoder's last cells and bias-free maps (docs/reproduction.md row 7, note 5). Own pre-trained archive.
{ variant: 'our-decoder-details', reduce_input: 'states', decoder_init: 'mean', decoder_bias: true }
