// The faithful configuration with our stack-LSTM decoder instead of the authors' (no input feeding, input rows tied to the output rows)
// (docs/reproduction.md row 7). Own pre-trained archive.
{ variant: 'stack-decoder', decoder: 'stack' }
