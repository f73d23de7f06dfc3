// The faithful configuration with new actions' prototypes computed without dropout (Eq. 3), instead
// of with it as the authors' fine-tuning does (docs/reproduction.md row 34). Fine-tuning only:
// reuses the faithful archive.
{ prototype_mode: 'eval' }
