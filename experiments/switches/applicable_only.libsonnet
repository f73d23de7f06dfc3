// The faithful configuration with the paper's action scoring instead of the authors' (docs/reproduction.md
// row 12): each step's distribution normalised over the actions the stack can take, in training and in
// decoding. Own pre-trained archive (the training loss differs).
{ variant: 'applicable-only', applicable_actions: { training: true, decoding: true } }
