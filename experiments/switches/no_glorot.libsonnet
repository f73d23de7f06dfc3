// The faithful configuration without the authors' Glorot initialisation at pre-training
// (docs/reproduction.md row 9): PyTorch's and AllenNLP's initialisers. Own pre-trained archive.
{ variant: 'no-glorot', glorot_init: false }
