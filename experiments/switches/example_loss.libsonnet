// The faithful configuration with the authors' loss normalisation: every term summed over the steps
// (or slots) of an example, averaged over the batch (docs/reproduction.md row 13). Own pre-trained archive.
{ variant: 'example-loss', loss_reduction: 'example' }
