// The faithful configuration with a constant fine-tuning learning rate: measures the scripts' decay
// on geo and ATIS 2-shot (docs/reproduction.md row 28; the other columns are the faithful ones).
// Fine-tuning only, so it shares the faithful pre-trained archive.
{ finetune_lr_decay: null }
