// The faithful configuration with the authors' meta-batch walk as they run it: one pass over the
// templates that runs on across epochs, instead of a new pass each epoch (docs/reproduction.md note 13).
// Own pre-trained archive.
{ variant: 'continuing-walk', meta_sampling: 'continuing_walk' }
