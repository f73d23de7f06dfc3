// Retention by replay (issue 57; training/retention/replay.py): fine-tuning also trains on 50 examples
// of the pre-training file (a sample seeded by FEWSHOT_SEED), shuffled and batched with the support
// set. Fine-tuning only: shares the faithful pre-trained archive.
{ retention: [{ type: 'replay', examples: 50 }] }
