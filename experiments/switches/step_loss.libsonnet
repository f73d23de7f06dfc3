// The faithful configuration with our loss normalisation: every term a mean over its steps (or slots),
// instead of the authors' per-example sums (docs/reproduction.md row 13). Own pre-trained archive.
// The authors' slot states are built on the per-example sums, so the slot states are ours too.
{ variant: 'step-loss', loss_reduction: 'step', slot_states: 'ours' }
