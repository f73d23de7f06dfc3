// The faithful configuration with new actions' prototypes computed in training mode (dropout on), as the
// authors' fine-tuning does (docs/reproduction.md row 34). Fine-tuning only: reuses the faithful archive.
{ prototype_mode: 'train' }
