// Ablation -proto: new actions not initialised by prototypes (random rows). Everything else as in the faithful experiment.
{ prototypes: false }
