// The faithful configuration with the authors' action scoring (docs/reproduction.md row 12): the
// training softmax over every action, and decoding that fails where the best action cannot be applied.
// Own pre-trained archive (the training loss differs).
{ variant: 'unrestricted', applicable_actions: { training: false, decoding: false } }
