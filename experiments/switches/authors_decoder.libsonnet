// The faithful configuration with the last two details of the authors' decoder: a REDUCE reads a
// linear map of its children's inputs, and h_0 comes from the encoder's last cells
// (docs/reproduction.md row 7, note 5). Own pre-trained archive.
{ variant: 'authors-decoder', reduce_input: 'inputs', decoder_init: 'last_cells' }
