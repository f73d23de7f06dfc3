// The faithful configuration with our two details of the authors' decoder: a REDUCE reads the mean of
// its children's decoder states, and h_0 comes from the mean encoder output, instead of a linear map
// of the children's inputs and the encoder's last cells (docs/reproduction.md row 7, note 5). Own
// pre-trained archive.
{ variant: 'our-decoder-details', reduce_input: 'states', decoder_init: 'mean' }
