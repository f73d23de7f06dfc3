// Retention by weight anchoring (elastic weight consolidation; issue 57; training/retention/anchoring.py):
// an L2 pull of every pre-trained weight toward its pre-trained value, each coordinate weighted by a
// diagonal Fisher estimate from 4 batches of 32 pre-training examples. Fine-tuning only: shares the
// faithful pre-trained archive.
{ retention: [{ type: 'anchoring', weight: 1, fisher: true }] }
