// The faithful configuration with a new shuffled pass over the templates each epoch, instead of the
// authors' pass that runs on across epochs (docs/reproduction.md row 22, note 13). Own pre-trained archive.
{ variant: 'restarting-walk', meta_sampling: 'walk' }
