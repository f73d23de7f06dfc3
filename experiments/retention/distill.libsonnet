// Retention by replay and distillation (learning without forgetting; issue 57;
// training/retention/distillation.py): the replay of replay.libsonnet, and on the replayed examples a
// KL term that keeps the known actions' distribution of each gold step near the pre-trained model's.
// Fine-tuning only: shares the faithful pre-trained archive.
{ retention: [{ type: 'replay', examples: 50 }, { type: 'distillation', weight: 1 }] }
