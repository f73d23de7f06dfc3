// The faithful configuration with the authors' Glorot initialisation at pre-training
// (docs/reproduction.md row 9), which the faithful default does not have yet. Own pre-trained archive.
{ variant: 'glorot', glorot_init: true }
